package io.loadwise.dispatcher.http.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Reads a node's responses, strictly: a node is trusted to serve, not to be correct, and a response the
 * proxy reads differently from how the client will read it splits the client's response stream. Any
 * malformed status line or header, a status outside 100-599, {@code Transfer-Encoding} other than
 * exactly {@code chunked}, TE with Content-Length (RFC 9112 §6.3 says to treat it as an error), or
 * conflicting lengths is refused with a 502 carried by the decoder result.
 *
 * <p>A node connection carries one request at a time, so the decoder is told directly whether the
 * request was a HEAD ({@link #expectResponseTo}). A 1xx is followed by the final response; after a 101
 * nothing more is read, since the bytes belong to the new protocol.
 */
final class ResponseDecoder extends StrictHttp1Decoder {

    private boolean head;
    private HttpVersion version;
    private HttpResponseStatus status;

    ResponseDecoder(int maxHeadBytes) {
        super(maxHeadBytes);
    }

    void expectResponseTo(boolean headRequest) {
        this.head = headRequest;
    }

    /** Bytes received but not yet read into messages. */
    int leftover() {
        return actualReadableBytes();
    }

    @Override
    BadMessage bad(String reason) {
        return new BadMessage(HttpResponseStatus.BAD_GATEWAY, "invalid response from the node: " + reason);
    }

    @Override
    BadMessage headTooLarge(int limit, boolean startLine) {
        return bad(limit == MAX_HEADER_LINES ? "more than " + limit + " header lines" : "head larger than " + limit + " bytes");
    }

    @Override
    void startLine(ByteBuf in, int start, int end) {
        int sp = in.indexOf(start, end, (byte) ' ');
        if (sp < 0) {
            throw bad("malformed status line");
        }
        version = version(in, start, sp);
        if (version == null) {
            throw bad("unsupported HTTP version");
        }
        int codeEnd = sp + 4;
        if (codeEnd > end || (codeEnd < end && in.getByte(codeEnd) != ' ')) {
            throw bad("malformed status code");
        }
        int code = 0;
        for (int i = sp + 1; i < codeEnd; i++) {
            int digit = in.getByte(i) - '0';
            if (digit < 0 || digit > 9) {
                throw bad("malformed status code");
            }
            code = code * 10 + digit;
        }
        if (code < 100 || code > 599) {
            throw bad("status code " + code + " out of range");
        }
        for (int i = codeEnd; i < end; i++) {
            if (!HttpSyntax.isFieldValueChar(in.getByte(i))) {
                throw bad("invalid character in the reason phrase");
            }
        }
        String reason = codeEnd + 1 < end ? in.toString(codeEnd + 1, end - codeEnd - 1, StandardCharsets.US_ASCII) : "";
        HttpResponseStatus standard = HttpResponseStatus.valueOf(code);
        status = reason.equals(standard.reasonPhrase()) ? standard : new HttpResponseStatus(code, reason);
    }

    @Override
    long completeHead(HttpHeaders headers, List<Object> out) {
        long framing = framing(headers);
        out.add(new DefaultHttpResponse(version, status, headers)); // only once its framing is known to be sound
        return framing;
    }

    private long framing(HttpHeaders headers) {
        int code = status.code();
        if (code == 101) {
            holdAfterThisMessage();
            return 0;
        }
        List<String> codings = headers.contains(HttpHeaderNames.TRANSFER_ENCODING)
                ? headers.getAll(HttpHeaderNames.TRANSFER_ENCODING) : List.of();
        boolean lengthSet = headers.contains(HttpHeaderNames.CONTENT_LENGTH);
        if (codings.size() > 1 || (codings.size() == 1 && !codings.get(0).equalsIgnoreCase("chunked"))) {
            throw bad("Transfer-Encoding other than chunked");
        }
        if (!codings.isEmpty() && lengthSet) {
            throw bad("both Transfer-Encoding and Content-Length");
        }
        long length = contentLength(headers); // checked even when the body is empty by rule
        if (code < 200 || code == 204 || code == 304 || head) {
            return 0;
        }
        if (!codings.isEmpty()) {
            return CHUNKED;
        }
        return length >= 0 ? length : UNTIL_CLOSE;
    }

    @Override
    void refuse(BadMessage reason, boolean inHead, List<Object> out) {
        if (inHead) {
            DefaultHttpResponse refused = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_GATEWAY);
            refused.setDecoderResult(DecoderResult.failure(reason));
            out.add(refused);
        } else {
            LastHttpContent refused = new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
            refused.setDecoderResult(DecoderResult.failure(reason));
            out.add(refused);
        }
    }
}
