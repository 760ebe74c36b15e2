// test/setup.ts - preloaded by `bun test` (see bunfig.toml [test].preload)
import { GlobalRegistrator } from "@happy-dom/global-registrator";
import * as matchers from "@testing-library/jest-dom/matchers";
import { afterEach, expect, mock, setSystemTime } from "bun:test";

GlobalRegistrator.register({ url: "http://localhost/" });
expect.extend(matchers);

afterEach(async () => {
  const { cleanup } = await import("@testing-library/react");
  cleanup();
  mock.restore();
  setSystemTime(); // back to real time
  document.body.innerHTML = "";
});
