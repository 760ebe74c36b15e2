import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { reportError, initReporting } from "./errors.js";

const base = process.env.JIRA_BASE_URL?.replace(/\/$/, "");
const auth = Buffer.from(`${process.env.JIRA_EMAIL}:${process.env.JIRA_API_TOKEN}`).toString("base64");

async function jira(path: string, init: RequestInit = {}): Promise<any> {
  if (!base) throw new Error("JIRA_BASE_URL not set");
  const res = await fetch(`${base}/rest/api/3${path}`, {
    ...init,
    headers: { Authorization: `Basic ${auth}`, Accept: "application/json", "Content-Type": "application/json", ...(init.headers || {}) },
  });
  if (!res.ok) {
    const err = new Error(`Jira ${res.status} ${res.statusText} on ${path}`);
    await reportError(err, { status: res.status, path });
    throw err;
  }
  return res.status === 204 ? {} : res.json();
}

const server = new McpServer({ name: "jira-bridge", version: "0.6.2" });

server.tool("jira_search", { jql: z.string(), max: z.number().int().min(1).max(50).default(20) }, async ({ jql, max }) => {
  const data = await jira(`/search/jql?jql=${encodeURIComponent(jql)}&maxResults=${max}&fields=summary,status,assignee`);
  const lines = data.issues.map((i: any) => `${i.key}\t${i.fields.status.name}\t${i.fields.assignee?.displayName ?? "-"}\t${i.fields.summary}`);
  return { content: [{ type: "text", text: lines.join("\n") || "no results" }] };
});

server.tool("jira_get", { key: z.string() }, async ({ key }) => {
  const i = await jira(`/issue/${key}?expand=renderedFields&fields=summary,description,status,comment`);
  const comments = (i.fields.comment?.comments ?? []).slice(-10).map((c: any) => `- ${c.author.displayName}: ${JSON.stringify(c.body).slice(0, 400)}`);
  return { content: [{ type: "text", text: `${i.key} [${i.fields.status.name}] ${i.fields.summary}\n\n${i.renderedFields?.description ?? ""}\n\nComments:\n${comments.join("\n")}` }] };
});

server.tool("jira_create", { project: z.string(), summary: z.string(), description: z.string().default(""), type: z.string().default("Task") }, async (a) => {
  const body = { fields: { project: { key: a.project }, summary: a.summary, issuetype: { name: a.type },
    description: { type: "doc", version: 1, content: [{ type: "paragraph", content: [{ type: "text", text: a.description || " " }] }] } } };
  const r = await jira(`/issue`, { method: "POST", body: JSON.stringify(body) });
  return { content: [{ type: "text", text: `created ${r.key}` }] };
});

server.tool("jira_transition", { key: z.string(), to: z.string() }, async ({ key, to }) => {
  const t = await jira(`/issue/${key}/transitions`);
  const match = t.transitions.find((x: any) => x.name.toLowerCase() === to.toLowerCase() || x.to.name.toLowerCase() === to.toLowerCase());
  if (!match) return { content: [{ type: "text", text: `no transition named ${to}; available: ${t.transitions.map((x: any) => x.name).join(", ")}` }] };
  await jira(`/issue/${key}/transitions`, { method: "POST", body: JSON.stringify({ transition: { id: match.id } }) });
  return { content: [{ type: "text", text: `${key} → ${match.to.name}` }] };
});

process.on("uncaughtException", (e) => { void reportError(e, { fatal: true }); });

await initReporting();
await server.connect(new StdioServerTransport());
