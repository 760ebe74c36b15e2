import { describe, expect, it } from "vitest";
import { slugify } from "./index";

describe("slugify", () => {
  it("handles accents and spaces", () => {
    expect(slugify("Crème Brûlée  Recipe")).toBe("creme-brulee-recipe");
  });
});
