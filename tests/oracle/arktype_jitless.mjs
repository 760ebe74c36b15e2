// Loaded by `node --import` before the clawhub CLI in the tests. ArkType, which validates every
// answer clawhub reads, compiles its validators to JavaScript at start-up unless it is told to
// interpret them (its mode for pages whose CSP forbids `new Function`): the same checks, about a
// third less CPU per start, and the tests start clawhub about 150 times.
import { pathToFileURL } from "node:url";

const { configure } = await import(pathToFileURL(process.env.SKILL_TEST_ARKTYPE_CONFIG).href);
configure({ jitless: true });
