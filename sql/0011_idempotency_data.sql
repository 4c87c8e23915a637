-- The idempotency store keeps a start's encoded data; each door (REST, MCP) adds its own status and
-- envelope. Rows written before kept the whole REST body ({"data": ...}) and its status (always 202).
UPDATE idempotency_keys SET response_body = response_body -> 'data' WHERE response_body ? 'data';
ALTER TABLE idempotency_keys DROP COLUMN response_status;
ALTER TABLE idempotency_keys RENAME COLUMN response_body TO response_data;
