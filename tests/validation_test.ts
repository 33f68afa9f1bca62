/**
 * zod's bound issues (`too_small`, `too_big`) in pydantic's words: every origin (string, list,
 * number) on both sides, inclusive and exclusive, through a real app.
 *
 * @module
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool, type Tool } from "../routes/tool.ts";
import { postJson, testApp } from "./_helpers.ts";

const Bounds = z.strictObject({
  short: z.string().min(2).optional(),
  long: z.string().max(1).optional(),
  few: z.array(z.string()).min(2).optional(),
  many: z.array(z.string()).max(1).optional(),
  ge: z.number().gte(1).optional(),
  gt: z.number().gt(0).optional(),
  le: z.number().lte(10).optional(),
  lt: z.number().lt(10).optional(),
});

const tools = [defineTool({
  name: "bounds",
  role: "reader",
  path: "/bounds",
  summary: "",
  description: "",
  input: Bounds,
  output: z.object({}),
  handle: () => ({}),
})] as Tool[];

Deno.test("a value outside a bound is pydantic's item for its kind, side and inclusiveness", async (t) => {
  const { app } = testApp({}, tools);
  const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ["string too short", { short: "a" }, {
      type: "string_too_short",
      msg: "String should have at least 2 characters",
      ctx: { min_length: 2 },
    }],
    ["string too long", { long: "ab" }, {
      type: "string_too_long",
      msg: "String should have at most 1 character",
      ctx: { max_length: 1 },
    }],
    ["list too short", { few: ["a"] }, {
      type: "too_short",
      msg: "List should have at least 2 items after validation, not 1",
      ctx: { field_type: "List", min_length: 2, actual_length: 1 },
    }],
    ["list too long", { many: ["a", "b"] }, {
      type: "too_long",
      msg: "List should have at most 1 item after validation, not 2",
      ctx: { field_type: "List", max_length: 1, actual_length: 2 },
    }],
    ["number under an inclusive minimum", { ge: 0 }, {
      type: "greater_than_equal",
      msg: "Input should be greater than or equal to 1",
      ctx: { ge: 1 },
    }],
    ["number at an exclusive minimum", { gt: 0 }, {
      type: "greater_than",
      msg: "Input should be greater than 0",
      ctx: { gt: 0 },
    }],
    ["number over an inclusive maximum", { le: 11 }, {
      type: "less_than_equal",
      msg: "Input should be less than or equal to 10",
      ctx: { le: 10 },
    }],
    ["number at an exclusive maximum", { lt: 10 }, {
      type: "less_than",
      msg: "Input should be less than 10",
      ctx: { lt: 10 },
    }],
  ];
  for (const [name, body, item] of cases) {
    await t.step(name, async () => {
      const res = await postJson(app, "/bounds", body);
      assert.equal(res.status, 422);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      const [field, input] = Object.entries(body)[0]!;
      const { type, msg, ctx } = item;
      assert.equal(
        JSON.stringify((await res.json()).detail),
        JSON.stringify([{ type, loc: ["body", field], msg, input, ctx }]),
      );
    });
  }
});
