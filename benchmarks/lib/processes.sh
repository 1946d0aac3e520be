# Shared by the benchmark scripts (overhead, tls-h2, h2spec, scale-out): a work directory that goes away at
# exit together with every process the script started, free loopback ports, and waiting for a listener.
#
#   source "$ROOT/benchmarks/lib/processes.sh"
#   bench_workdir loadwise-overhead      # sets WORK and PIDS; PIDS+=($!) after each process started
#   PORT="$(free_port)"; ...; wait_port "$PORT"

bench_workdir() { # name
  WORK="$(mktemp -d "/tmp/$1.XXXXXX")"
  PIDS=()
  trap bench_cleanup EXIT
  trap 'exit 130' INT TERM
}

bench_cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# Waits up to 90 s for something to listen on 127.0.0.1:$1.
wait_port() {
  for _ in $(seq 1 900); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nothing listens on port $1" >&2
  return 1
}
