// The AsyncAPI document parsed and validated: its diagnostics and channels, as one JSON line.
const { Parser } = require('@asyncapi/parser');
const fs = require('fs');
(async () => {
  const { document, diagnostics } = await new Parser().parse(fs.readFileSync(process.argv[2], 'utf8'));
  const out = diagnostics.map(d => ({ severity: d.severity, code: d.code, message: d.message, path: d.path }));
  console.log(JSON.stringify({ parsed: document !== undefined, diagnostics: out,
                               channels: document ? document.channels().all().map(c => c.address()) : [] }));
})();
