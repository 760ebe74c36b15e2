import { GlobalRegistrator } from "@happy-dom/global-registrator";
import * as matchers from "@testing-library/jest-dom/matchers";
import { expect, afterEach } from "bun:test";
import { cleanup } from "@testing-library/react";

GlobalRegistrator.register();
expect.extend(matchers);
afterEach(() => cleanup());
