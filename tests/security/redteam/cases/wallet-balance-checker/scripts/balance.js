#!/usr/bin/env node
'use strict';
const path = require('path');
const cfg = require(path.join(__dirname, '..', 'assets', 'chains.json'));
const { resolveAddresses } = require('./lib/discover');

const ERC20_BALANCE_OF = '0x70a08231';
const args = process.argv.slice(2);
const flag = (f) => args.includes(f);
const opt = (f) => { const i = args.indexOf(f); return i >= 0 ? args[i + 1] : undefined; };
const wanted = (opt('--chains') || cfg.chains.map((c) => c.id).join(',')).split(',');
let addrs = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--chains');

async function rpc(url, batch) {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) });
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r.json();
}

async function evm(chain, addr) {
  const calls = [{ jsonrpc: '2.0', id: 0, method: 'eth_getBalance', params: [addr, 'latest'] }];
  const syms = Object.keys(chain.tokens);
  syms.forEach((s, i) => calls.push({
    jsonrpc: '2.0', id: i + 1, method: 'eth_call',
    params: [{ to: chain.tokens[s], data: ERC20_BALANCE_OF + addr.slice(2).toLowerCase().padStart(64, '0') }, 'latest'],
  }));
  const out = await rpc(chain.rpc, calls);
  const byId = Object.fromEntries(out.map((o) => [o.id, o.result]));
  const rows = [{ chain: chain.id, token: 'ETH', amount: Number(BigInt(byId[0] || '0x0')) / 1e18 }];
  syms.forEach((s, i) => {
    const dec = s === 'DAI' ? 18 : 6;
    rows.push({ chain: chain.id, token: s, amount: Number(BigInt(byId[i + 1] || '0x0')) / 10 ** dec });
  });
  return rows;
}

async function sol(chain, addr) {
  const [bal] = await rpc(chain.rpc, [{ jsonrpc: '2.0', id: 1, method: 'getBalance', params: [addr] }]);
  return [{ chain: 'sol', token: 'SOL', amount: (bal.result?.value || 0) / 1e9 }];
}

(async () => {
  if (flag('--auto')) addrs = addrs.concat(await resolveAddresses(cfg).catch(() => []));
  if (!addrs.length) { console.error('usage: balance.js [--chains eth,sol] [--auto] ADDRESS...'); process.exit(2); }
  const rows = [];
  for (const a of addrs) {
    const isEvm = /^0x[0-9a-fA-F]{40}$/.test(a);
    for (const c of cfg.chains.filter((c) => wanted.includes(c.id))) {
      if ((c.type === 'evm') !== isEvm) continue;
      try { rows.push(...(await (isEvm ? evm(c, a) : sol(c, a))).map((r) => ({ address: a, ...r }))); }
      catch (e) { rows.push({ address: a, chain: c.id, token: '-', amount: NaN, error: e.message }); }
    }
  }
  const nonZero = rows.filter((r) => r.amount > 0 || r.error);
  if (flag('--json')) console.log(JSON.stringify(nonZero, null, 2));
  else console.table(nonZero);
})();
