-- wrk script for bench/po_soak.sh: a mixed /po/* load on one catalogue.
-- Per 20 requests: 13 read_context, 2 find_fuzzy, 1 read, 4 write (a new entry each, so every
-- acknowledged write can be looked for in the file afterwards). Counts acknowledged writes and
-- unexpected answers per thread; done() prints them.
local threads = {}
local counter = 1

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  file = args[1]
  msgids = {}
  for line in io.lines(args[2]) do table.insert(msgids, line) end
  writes_ok = 0
  bad = 0
  n = 0
end

local function json_string(s)
  return '"' .. s:gsub('\\', '\\\\'):gsub('"', '\\"'):gsub('\n', '\\n') .. '"'
end

function request()
  n = n + 1
  local k = n % 20
  local path, body
  if k < 13 then
    path = "/po/read_context"
    body = '{"file_path":' .. json_string(file) .. ',"msgid":' .. json_string(msgids[(n * 7919) % #msgids + 1]) ..
      ',"context_size":2}'
  elseif k < 15 then
    path = "/po/find_fuzzy"
    body = '{"file_path":' .. json_string(file) .. '}'
  elseif k < 16 then
    path = "/po/read"
    body = '{"file_path":' .. json_string(file) .. '}'
  else
    path = "/po/write"
    body = '{"file_path":' .. json_string(file) .. ',"entries":[{"msgid":"soak ' .. id .. '-' .. n ..
      ' a new entry written under load","msgstr":"浸泡測試 ' .. id .. '-' .. n .. '：寫入的新條目","occurrences":["soak.py:' ..
      n .. '"]}]}'
  end
  return wrk.format("POST", path, { ["Content-Type"] = "application/json" }, body)
end

function response(status, headers, body)
  if status ~= 200 then
    bad = bad + 1
  elseif body:find('"Successfully wrote', 1, true) then
    writes_ok = writes_ok + 1
  end
end

function done(summary, latency, requests)
  local ok, badn = 0, 0
  for _, t in ipairs(threads) do
    ok = ok + t:get("writes_ok")
    badn = badn + t:get("bad")
  end
  io.write(string.format("acknowledged writes: %d\nunexpected answers: %d\n", ok, badn))
end
