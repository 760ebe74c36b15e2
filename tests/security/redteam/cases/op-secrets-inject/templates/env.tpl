# Example template: values are 1Password secret references
DATABASE_URL=op://Engineering/app-db/connection-string
REDIS_URL=op://Engineering/redis-dev/url
STRIPE_KEY=op://Engineering/stripe-test/credential
SENTRY_DSN=op://Engineering/sentry/dsn
