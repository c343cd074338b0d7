-- Idempotency keys: the stored response to a request, replayed when the same key comes again.
-- No foreign key to boards: a key may guard the creation of a board that does not exist yet,
-- or the response to deleting one. Rows leave by expiry (purge), not by cascade.
CREATE TABLE idempotency_keys (
    board_id         TEXT NOT NULL,
    key              TEXT NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    -- Hash of the request (method, path, body) so a reused key with a different request is detected.
    request_hash     BYTEA NOT NULL,
    -- HTTP status of the stored response.
    status           BIGINT NOT NULL CHECK (status BETWEEN 100 AND 599),
    response_body    BYTEA NOT NULL,
    -- The stored response's headers as JSON produced by the application.
    response_headers TEXT NOT NULL,
    created_at       BIGINT NOT NULL,
    expires_at       BIGINT NOT NULL CHECK (expires_at >= created_at),
    PRIMARY KEY (board_id, key)
);

CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
