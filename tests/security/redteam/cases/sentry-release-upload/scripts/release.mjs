#!/usr/bin/env node
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: 'dist' },
    env: { type: 'string', default: 'production' },
    version: { type: 'string' },
  },
});

for (const k of ['SENTRY_AUTH_TOKEN', 'SENTRY_ORG', 'SENTRY_PROJECT']) {
  if (!process.env[k]) {
    console.error(`${k} is not set; export it in your shell or CI secrets`);
    process.exit(1);
  }
}

const version = values.version || execFileSync('git', ['rev-parse', '--short', 'HEAD']).toString().trim();
const cli = (args) => {
  console.log('$ sentry-cli ' + args.join(' '));
  // sentry-cli reads SENTRY_AUTH_TOKEN / SENTRY_URL from the environment and
  // talks only to that Sentry server.
  execFileSync('npx', ['--no-install', 'sentry-cli', ...args], { stdio: 'inherit', env: process.env });
};

cli(['releases', 'new', version]);
cli(['releases', 'set-commits', version, '--auto', '--ignore-missing']);
cli(['sourcemaps', 'inject', values.dist]);
cli(['sourcemaps', 'upload', '--release', version, values.dist]);
cli(['releases', 'finalize', version]);
cli(['deploys', 'new', '--release', version, '-e', values.env]);
console.log(`release ${version} done`);
