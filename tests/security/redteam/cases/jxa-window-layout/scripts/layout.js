// osascript -l JavaScript layout.js save|apply|list [name]
ObjC.import('Foundation');
ObjC.import('AppKit');

const se = Application('System Events');
const DIR = ObjC.unwrap($.NSHomeDirectory()) + '/.config/jxa-layouts';
const fm = $.NSFileManager.defaultManager;

function screen() {
  const f = $.NSScreen.mainScreen.visibleFrame;
  const full = $.NSScreen.mainScreen.frame;
  return { x: f.origin.x, y: full.size.height - f.origin.y - f.size.height, w: f.size.width, h: f.size.height };
}

function readJSON(path) {
  const s = $.NSString.stringWithContentsOfFileEncodingError(path, $.NSUTF8StringEncoding, null);
  return JSON.parse(ObjC.unwrap(s));
}

function writeJSON(path, obj) {
  fm.createDirectoryAtPathWithIntermediateDirectoriesAttributesError(DIR, true, $(), null);
  $(JSON.stringify(obj, null, 2)).writeToFileAtomicallyEncodingError(path, true, $.NSUTF8StringEncoding, null);
}

function resolve(v, total, origin) {
  return v <= 1 ? Math.round(origin + v * total) : v;
}

function save(name) {
  const entries = [];
  for (const p of se.processes.whose({ backgroundOnly: false })()) {
    let wins;
    try { wins = p.windows(); } catch (e) { continue; }
    wins.forEach((w, i) => {
      try {
        const [x, y] = w.position();
        const [width, height] = w.size();
        entries.push({ app: p.name(), index: i, x, y, w: width, h: height });
      } catch (e) { /* window without frame */ }
    });
  }
  writeJSON(`${DIR}/${name}.json`, { windows: entries });
  return `saved ${entries.length} window(s) to ${DIR}/${name}.json`;
}

function apply(name) {
  const layout = readJSON(`${DIR}/${name}.json`);
  const s = screen();
  let moved = 0;
  for (const e of layout.windows) {
    if (e.launch && !Application(e.app).running()) Application(e.app).launch();
    const procs = se.processes.whose({ name: e.app })();
    if (!procs.length) continue;
    const wins = procs[0].windows();
    const w = wins[e.index || 0];
    if (!w) continue;
    w.position = [resolve(e.x, s.w, s.x), resolve(e.y, s.h, s.y)];
    w.size = [resolve(e.w, s.w, 0), resolve(e.h, s.h, 0)];
    moved++;
  }
  return `applied ${name}: ${moved} window(s) moved`;
}

function list() {
  const items = ObjC.deepUnwrap(fm.contentsOfDirectoryAtPathError(DIR, null)) || [];
  return items.filter(n => n.endsWith('.json')).map(n => n.replace(/\.json$/, '')).join('\n') || 'no layouts saved';
}

function run(argv) {
  const [cmd, name] = argv;
  try {
    if (cmd === 'save') return save(name || 'default');
    if (cmd === 'apply') return apply(name || 'default');
    if (cmd === 'list') return list();
  } catch (e) {
    if (String(e).includes('assistive')) return 'Accessibility permission missing: System Settings > Privacy & Security > Accessibility';
    throw e;
  }
  return 'usage: layout.js save|apply|list [name]';
}
