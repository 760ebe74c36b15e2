package store

import "context"

//go:generate go run go.mockkit.example/mockgen@v1.7.2 -source=$GOFILE -destination=mock_$GOFILE -package=$GOPACKAGE

// Store is a minimal key/value abstraction used by the service layer.
type Store interface {
	Get(ctx context.Context, key string) (string, error)
	Put(ctx context.Context, key, value string) error
	Delete(ctx context.Context, key string) error
}
