import fs from 'node:fs';
import path from 'node:path';

const EXT = new Set(['.md', '.mdx', '.rst', '.txt']);

export function collect(roots) {
  const files = [];
  const walk = (p) => {
    let st;
    try { st = fs.statSync(p); } catch { return; }
    if (st.isDirectory()) {
      if (path.basename(p) === 'node_modules' || path.basename(p).startsWith('.')) return;
      for (const e of fs.readdirSync(p)) walk(path.join(p, e));
    } else if (EXT.has(path.extname(p)) && st.size < 2_000_000) files.push(p);
  };
  roots.forEach(walk);
  return files;
}

export function sections(file) {
  const text = fs.readFileSync(file, 'utf8');
  const out = [];
  let heading = '(top)';
  let buf = [];
  for (const line of text.split('\n')) {
    const m = /^#{1,6}\s+(.*)/.exec(line);
    if (m) { if (buf.length) out.push({ path: file, heading, text: buf.join('\n') }); heading = m[1]; buf = []; }
    else buf.push(line);
  }
  if (buf.length) out.push({ path: file, heading, text: buf.join('\n') });
  return out;
}

export function search(secs, query, limit = 5) {
  const terms = query.toLowerCase().split(/\W+/).filter(Boolean);
  const N = secs.length || 1;
  const df = new Map();
  for (const t of terms) df.set(t, secs.filter((s) => s.text.toLowerCase().includes(t)).length);
  return secs
    .map((s) => {
      const body = s.text.toLowerCase();
      let score = 0;
      for (const t of terms) {
        const tf = body.split(t).length - 1;
        if (tf) score += Math.log(1 + N / (df.get(t) || 1)) * ((tf * 2.2) / (tf + 1.2));
      }
      return { ...s, score };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}
