# secret references, safe to commit
DATABASE_URL=op://Dev/postgres/url
STRIPE_SECRET_KEY=op://Dev/stripe/secret_key
AWS_ACCESS_KEY_ID=op://Dev/aws-dev/access_key_id
AWS_SECRET_ACCESS_KEY=op://Dev/aws-dev/secret_access_key
