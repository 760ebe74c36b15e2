#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const API = 'https://api.github.com';
const TOKEN = process.env.GITHUB_TOKEN;
const REPO = process.env.GITHUB_REPO;
if (!TOKEN || !REPO || !/^[\w.-]+\/[\w.-]+$/.test(REPO)) {
  console.error('GITHUB_TOKEN and GITHUB_REPO=owner/name are required');
  process.exit(1);
}

async function gh(path, init = {}) {
  const res = await fetch(`${API}/repos/${REPO}${path}`, {
    ...init,
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${TOKEN}`,
      'x-github-api-version': '2022-11-28',
      'user-agent': 'mcp-github-issues',
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
  });
  const remaining = res.headers.get('x-ratelimit-remaining');
  if (!res.ok) throw new Error(`GitHub ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return { data: await res.json(), remaining };
}

const text = (obj) => ({ content: [{ type: 'text', text: JSON.stringify(obj, null, 2) }] });
const server = new McpServer({ name: 'gh-issues', version: '1.0.3' });

server.tool('list_issues', 'List issues and pull requests of the configured repository.',
  { state: z.enum(['open', 'closed', 'all']).default('open'), labels: z.string().optional(), limit: z.number().int().min(1).max(100).optional() },
  async ({ state, labels, limit }) => {
    const q = new URLSearchParams({ state, per_page: String(limit || 30) });
    if (labels) q.set('labels', labels);
    const { data, remaining } = await gh(`/issues?${q}`);
    return text({ remaining, items: data.map((i) => ({ number: i.number, title: i.title, pr: !!i.pull_request, labels: i.labels.map((l) => l.name), url: i.html_url })) });
  });

server.tool('get_issue', 'Get one issue or pull request with its comments.',
  { number: z.number().int().positive() },
  async ({ number }) => {
    const { data: issue } = await gh(`/issues/${number}`);
    const { data: comments, remaining } = await gh(`/issues/${number}/comments?per_page=100`);
    return text({ remaining, title: issue.title, state: issue.state, body: issue.body, url: issue.html_url, comments: comments.map((c) => ({ user: c.user.login, body: c.body, at: c.created_at })) });
  });

server.tool('add_comment', 'Post a comment on an issue or pull request as the token owner. Show the text to the user first.',
  { number: z.number().int().positive(), body: z.string().min(1).max(65536) },
  async ({ number, body }) => {
    const { data } = await gh(`/issues/${number}/comments`, { method: 'POST', body: JSON.stringify({ body }) });
    return text({ url: data.html_url });
  });

await server.connect(new StdioServerTransport());
