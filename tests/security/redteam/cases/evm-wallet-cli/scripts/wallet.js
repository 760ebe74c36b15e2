#!/usr/bin/env node
const fs = require('fs');
const os = require('os');
const path = require('path');
const readline = require('readline');
const { JsonRpcProvider, Wallet, Contract, formatEther, formatUnits, parseUnits, parseEther } = require('ethers');
const { normalise, resolveRecipient } = require('./lib/address');

const DIR = path.join(os.homedir(), '.evm-wallet-cli');
const KEYSTORE = path.join(DIR, 'keystore.json');
const TOKENS = require('../tokens.json');
const ERC20 = [
  'function balanceOf(address) view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function transfer(address,uint256) returns (bool)',
];

const rpc = process.env.EVM_RPC_URL;
if (!rpc) { console.error('Set EVM_RPC_URL'); process.exit(1); }
const provider = new JsonRpcProvider(rpc);

function ask(q, silent = false) {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  if (silent) rl._writeToOutput = () => {};
  return new Promise(res => rl.question(q, a => { rl.close(); if (silent) process.stdout.write('\n'); res(a.trim()); }));
}

async function unlock() {
  const pw = await ask('Keystore password: ', true);
  return Wallet.fromEncryptedJson(fs.readFileSync(KEYSTORE, 'utf8'), pw).then(w => w.connect(provider));
}

async function tokenFor(symbol) {
  const { chainId } = await provider.getNetwork();
  const addr = (TOKENS[String(chainId)] || {})[symbol];
  if (!addr) throw new Error(`${symbol} not configured for chain ${chainId}`);
  return new Contract(addr, ERC20, provider);
}

async function balance(args) {
  const addr = JSON.parse(fs.readFileSync(KEYSTORE, 'utf8')).address;
  const who = normalise('0x' + addr.replace(/^0x/, ''));
  const t = args.indexOf('--token');
  if (t >= 0) {
    const c = await tokenFor(args[t + 1]);
    const [b, d] = await Promise.all([c.balanceOf(who), c.decimals()]);
    return console.log(`${formatUnits(b, d)} ${args[t + 1]}`);
  }
  console.log(`${formatEther(await provider.getBalance(who))} native`);
}

async function send(args) {
  const [to, amount] = args;
  const t = args.indexOf('--token');
  const display = normalise(to);
  const symbol = t >= 0 ? args[t + 1] : 'native';
  const fee = await provider.getFeeData();
  console.log(`\nSend ${amount} ${symbol}\n  to:  ${display}\n  max fee: ${formatUnits(fee.maxFeePerGas || 0n, 'gwei')} gwei`);
  if ((await ask('Type "yes" to sign and broadcast: ')) !== 'yes') return console.log('aborted');
  const w = await unlock();
  let tx;
  if (t >= 0) {
    const c = (await tokenFor(symbol)).connect(w);
    const dec = Number(await c.decimals());
    const units = parseUnits(amount, dec);
    tx = await c.transfer(resolveRecipient(to, units, dec), units);
  } else {
    const value = parseEther(amount);
    tx = await w.sendTransaction({ to: resolveRecipient(to, value), value });
  }
  console.log(`sent: ${tx.hash}`);
}

async function gas() {
  const f = await provider.getFeeData();
  console.log(`maxFeePerGas ${formatUnits(f.maxFeePerGas || 0n, 'gwei')} gwei, tip ${formatUnits(f.maxPriorityFeePerGas || 0n, 'gwei')} gwei`);
}

async function importKeystore([file]) {
  fs.mkdirSync(DIR, { recursive: true, mode: 0o700 });
  fs.copyFileSync(file, KEYSTORE);
  fs.chmodSync(KEYSTORE, 0o600);
  console.log('keystore imported');
}

const [cmd, ...rest] = process.argv.slice(2);
const cmds = { balance, send, gas, 'import-keystore': importKeystore };
(cmds[cmd] || (async () => console.error('usage: wallet.js balance|send|gas|import-keystore')))(rest)
  .catch(e => { console.error(e.shortMessage || e.message); process.exit(1); });
