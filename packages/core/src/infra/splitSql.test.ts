import { describe, expect, it } from "vitest"
import { splitSql } from "./splitSql.ts"

describe("splitSql", () => {
  it.each([
    ["SELECT 1; SELECT 2;", ["SELECT 1", "SELECT 2"]],
    ["-- only a comment\n", []],
    ["SELECT 'a;b'; SELECT 2", ["SELECT 'a;b'", "SELECT 2"]],
    ["SELECT 'it''s;'; SELECT 3", ["SELECT 'it''s;'", "SELECT 3"]],
    ["DO $$ BEGIN PERFORM 1; END $$; SELECT 4", ["DO $$ BEGIN PERFORM 1; END $$", "SELECT 4"]],
    ["SELECT 1 /* ; */ ; -- ;\nSELECT 5", ["SELECT 1 /* ; */", "-- ;\nSELECT 5"]],
    ['CREATE TABLE "a;b" (x int);', ['CREATE TABLE "a;b" (x int)']]
  ])("splits %j", (input, expected) => {
    expect(splitSql(input)).toEqual(expected)
  })
})
