#!/usr/bin/env node
// Decode, explain and (after explicit confirmation) sign an EVM transaction.
const fs = require('fs');
const readline = require('readline');
const { Interface, JsonRpcProvider, Wallet, Transaction, formatEther, getAddress, MaxUint256 } = require('ethers');

const ERC20 = new Interface([
  'function transfer(address to, uint256 amount)',
  'function approve(address spender, uint256 amount)',
  'function transferFrom(address from, address to, uint256 amount)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
]);

function ask(q, hidden = false) {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  if (hidden) rl._writeToOutput = () => {};
  return new Promise(r => rl.question(q, a => { rl.close(); if (hidden) process.stdout.write('\n'); r(a.trim()); }));
}

async function decode(tx, provider) {
  const out = { lines: [], warnings: [], counterparty: tx.to ? getAddress(tx.to) : null };
  out.lines.push(`chain id : ${tx.chainId ?? '(missing)'}`);
  out.lines.push(`to       : ${tx.to ?? '(contract creation)'}`);
  out.lines.push(`value    : ${formatEther(BigInt(tx.value || 0))} ETH`);
  out.lines.push(`gas limit: ${tx.gasLimit ?? '(estimate at signing)'}`);
  if (tx.chainId == null) out.warnings.push('chain id missing: replayable on other chains');
  if (provider) {
    const net = await provider.getNetwork();
    if (tx.chainId != null && BigInt(tx.chainId) !== net.chainId) out.warnings.push(`chain id ${tx.chainId} differs from RPC chain ${net.chainId}`);
    if (tx.to && tx.data && tx.data !== '0x' && (await provider.getCode(tx.to)) === '0x') out.warnings.push('calldata sent to an address with no contract code');
  }
  if (tx.data && tx.data !== '0x') {
    try {
      const d = ERC20.parseTransaction({ data: tx.data, value: tx.value || 0 });
      out.lines.push(`method   : ${d.signature}`);
      d.fragment.inputs.forEach((inp, i) => out.lines.push(`  ${inp.name.padEnd(9)}: ${d.args[i]}`));
      if (d.name === 'approve' || d.name === 'permit') {
        out.counterparty = getAddress(d.args[d.name === 'approve' ? 0 : 1]);
        const amt = d.args[d.name === 'approve' ? 1 : 2];
        if (amt === MaxUint256) out.warnings.push('UNLIMITED approval: spender can move all of this token, now and later');
      }
      if (d.name === 'transfer') out.counterparty = getAddress(d.args[0]);
    } catch {
      out.lines.push(`method   : unknown selector ${tx.data.slice(0, 10)} (${(tx.data.length - 2) / 2} bytes calldata)`);
      out.warnings.push('unknown contract method: verify the contract and method on a block explorer');
    }
  }
  return out;
}

function print(d) {
  console.log(d.lines.join('\n'));
  for (const w of d.warnings) console.log(`WARNING: ${w}`);
}

async function main() {
  const [cmd, file, ...rest] = process.argv.slice(2);
  const provider = process.env.EVM_RPC_URL ? new JsonRpcProvider(process.env.EVM_RPC_URL) : null;
  let tx;
  if (file === '--data') tx = { data: rest[0], to: rest[rest.indexOf('--to') + 1], value: '0' };
  else tx = JSON.parse(fs.readFileSync(file, 'utf8'));
  const d = await decode(tx, provider);
  print(d);
  if (cmd === 'decode') return;
  if (cmd !== 'sign') throw new Error('usage: review.js decode|sign tx.json');

  const ks = rest[rest.indexOf('--keystore') + 1];
  if (!ks || rest.indexOf('--keystore') < 0) throw new Error('--keystore required');
  if (d.counterparty) {
    const tail = await ask(`Type the last 6 characters of ${d.counterparty}: `);
    if (tail.toLowerCase() !== d.counterparty.slice(-6).toLowerCase()) throw new Error('address confirmation mismatch; aborted');
  }
  if ((await ask('Type "sign" to sign exactly this transaction: ')) !== 'sign') throw new Error('aborted');
  const pw = await ask('Keystore password: ', true);
  let wallet = await Wallet.fromEncryptedJson(fs.readFileSync(ks, 'utf8'), pw);
  if (provider) wallet = wallet.connect(provider);
  const populated = provider ? await wallet.populateTransaction(tx) : tx;
  const raw = await wallet.signTransaction(populated);
  fs.writeFileSync('tx.signed.txt', raw + '\n');
  console.log(`signed: ${Transaction.from(raw).hash} (written to tx.signed.txt)`);
  if (rest.includes('--broadcast')) {
    if (!provider) throw new Error('EVM_RPC_URL needed to broadcast');
    const sent = await provider.broadcastTransaction(raw);
    console.log(`broadcast: ${sent.hash}`);
  }
}

main().catch(e => { console.error(e.shortMessage || e.message); process.exit(1); });
