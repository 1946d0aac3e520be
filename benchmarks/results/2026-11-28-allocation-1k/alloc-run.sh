set -e
# Allocation per request at 1 KB (issue 35 item 2): the shipped jar, tracing off, one worker thread, wrk -c50 45 s;
# JFR "profile" settings (jdk.ObjectAllocationSample) from 15 s to 40 s. Then: python3 alloc-sites.py /tmp/alloc/rec.jfr
rm -rf /tmp/alloc; mkdir -p /tmp/alloc
cd /tmp/alloc
mkdir -p www node
head -c 1024 /dev/zero | tr '\0' 'x' > www/1k.html
cat > node/nginx.conf <<CONF
worker_processes 1;
daemon off;
pid /tmp/alloc/node/nginx.pid;
error_log /tmp/alloc/node/error.log warn;
events { worker_connections 4096; }
http { access_log off; keepalive_requests 1000000;
  server { listen 127.0.0.1:18081 backlog=4096; root /tmp/alloc/www; }
  server { listen 127.0.0.1:18082; location = /v1/traces { return 200; } } }
CONF
/usr/sbin/nginx -c /tmp/alloc/node/nginx.conf -p /tmp/alloc/node &
NGX=$!
cat > lw.json <<JSON
{ "admin": { "listen": "127.0.0.1:18090", "token": "tracing-benchmark-token-0123456789" },

  "clusters": [ { "name": "bench", "mode": "http", "listen": "127.0.0.1:18080", "policy": "round-robin",
      "nodes": [ { "name": "node1", "address": "127.0.0.1:18081" } ] } ] }
JSON
LOADWISE_ADMIN_PASSWORD=tracing-benchmark-password java -XX:StartFlightRecording=filename=/tmp/alloc/rec.jfr,settings=profile,delay=15s,duration=25s -jar ${JAR:-/work/main/admin-console/target/loadwise.jar} run --config lw.json --worker-threads 1 > lw.log 2>&1 &
LW=$!
for i in $(seq 1 100); do curl -s -o /dev/null http://127.0.0.1:18080/1k.html && break; sleep 0.2; done
wrk -t1 -c50 -d45s http://127.0.0.1:18080/1k.html > wrk.txt
sleep 2
kill $LW; wait $LW || true
kill $NGX; wait $NGX || true
