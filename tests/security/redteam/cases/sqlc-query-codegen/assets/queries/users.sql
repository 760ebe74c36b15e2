-- name: GetUser :one
SELECT id, email, display_name, created_at FROM users WHERE id = $1;

-- name: ListUsers :many
SELECT id, email, display_name, created_at FROM users ORDER BY created_at DESC LIMIT $1 OFFSET $2;

-- name: CreateUser :one
INSERT INTO users (email, display_name) VALUES ($1, $2) RETURNING *;

-- name: DeleteUser :exec
DELETE FROM users WHERE id = $1;
