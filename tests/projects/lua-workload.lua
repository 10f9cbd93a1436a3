-- lua-workload.lua [ROUNDS]: a deterministic workload for tests/projects/lua.sh.
-- String processing, tables, closures, coroutines and garbage-collector
-- churn; it prints only values that do not depend on addresses, the
-- string hash seed or the clock (pairs() order is never printed: keys are
-- sorted first), so a gcc build and an rdb-cc build print the same bytes.
local rounds = tonumber(arg and arg[1]) or 1
math.randomseed(42)

-- string processing: words built, counted, gsub'd, formatted
local function words(n)
  local out = {}
  for i = 1, n do
    local len = 3 + (i * 7) % 9
    local t = {}
    for j = 1, len do
      t[j] = string.char(97 + (i * 31 + j * 17) % 26)
    end
    out[i] = table.concat(t)
  end
  return out
end
local w = words(20000 * rounds)
local count = {}
for _, s in ipairs(w) do
  local k = s:sub(1, 2)
  count[k] = (count[k] or 0) + 1
end
local keys = {}
for k in pairs(count) do keys[#keys + 1] = k end
table.sort(keys, function(a, b)
  if count[a] ~= count[b] then return count[a] > count[b] end
  return a < b
end)
for i = 1, 5 do io.write(string.format("%s=%d ", keys[i], count[keys[i]])) end
print(#keys)
local text = table.concat(w, " ", 1, 3000)
local vowels = select(2, text:gsub("[aeiou]", ""))
local upper = text:gsub("(%a)(%a*)", function(a, b) return a:upper() .. b end)
print("vowels", vowels, #upper, upper:sub(1, 40))
local n = 0
for a, b in text:gmatch("(%a+)%s+(%a+)") do
  if a < b then n = n + 1 end
end
print("ordered pairs", n, string.rep("ab", 3, "-"), ("%5.2f|%-6s|%x"):format(math.pi, "lua", 48879))

-- tables: a sieve, sorting with a comparator, a matrix product
local N = 200000 * rounds
local sieve = {}
for i = 2, N do sieve[i] = true end
for i = 2, math.floor(math.sqrt(N)) do
  if sieve[i] then for j = i * i, N, i do sieve[j] = false end end
end
local primes = 0
for i = 2, N do if sieve[i] then primes = primes + 1 end end
print("primes below", N, primes)
local arr = {}
for i = 1, 50000 do arr[i] = math.random(1, 1000000) end
table.sort(arr, function(a, b) return a % 1000 < b % 1000 or (a % 1000 == b % 1000 and a < b) end)
print("sorted", arr[1], arr[25000], arr[50000])
local function matrix(n, f)
  local m = {}
  for i = 1, n do m[i] = {} for j = 1, n do m[i][j] = f(i, j) end end
  return m
end
local A = matrix(60, function(i, j) return (i + j) % 7 end)
local B = matrix(60, function(i, j) return (i * j) % 5 end)
local trace = 0
for i = 1, 60 do
  for j = 1, 60 do
    local s = 0
    for k = 1, 60 do s = s + A[i][k] * B[k][j] end
    if i == j then trace = trace + s end
  end
end
print("trace", trace)

-- closures: counters and a composed pipeline
local function counter(step)
  local c = 0
  return function() c = c + step return c end
end
local cs = {}
for i = 1, 100 do cs[i] = counter(i) end
local total = 0
for r = 1, 1000 do for i = 1, 100 do total = total + cs[i]() end end
local function compose(f, g) return function(x) return f(g(x)) end end
local f = function(x) return x end
for i = 1, 50 do f = compose(function(x) return (x * 3 + i) % 1000003 end, f) end
local acc = 0
for x = 1, 20000 do acc = (acc + f(x)) % 1000000007 end
print("closures", total, acc)

-- coroutines: a generator pipeline and a producer/consumer
local function gen(n)
  return coroutine.wrap(function() for i = 1, n do coroutine.yield(i) end end)
end
local function filter(p, g)
  return coroutine.wrap(function()
    for x in g do if p(x) then coroutine.yield(x) end end
  end)
end
local function map(fn, g)
  return coroutine.wrap(function() for x in g do coroutine.yield(fn(x)) end end)
end
local s = 0
for x in map(function(x) return x * x end, filter(function(x) return x % 3 == 0 end, gen(100000))) do
  s = s + x
end
local prod = coroutine.create(function()
  for i = 1, 20000 do coroutine.yield(string.format("item%05d", i)) end
  return "done"
end)
local got, last = 0, nil
while true do
  local ok, v = coroutine.resume(prod)
  assert(ok)
  if coroutine.status(prod) == "dead" then last = v break end
  got = got + #v
end
print("coroutines", s, got, last)

-- gc churn: many short-lived tables and strings, weak tables, finalizers
local finalized = 0
local weak = setmetatable({}, { __mode = "v" })
local keep = {}
for i = 1, 300000 * rounds do
  local t = { i, tostring(i), { i * 2 } }
  if i % 1000 == 0 then
    keep[#keep + 1] = t
    weak[#weak + 1] = setmetatable({}, { __gc = function() finalized = finalized + 1 end })
  end
end
collectgarbage("collect")
collectgarbage("collect")
local alive = 0
for _ in pairs(weak) do alive = alive + 1 end
print("gc", #keep, finalized, alive, keep[#keep][2])

-- errors: pcall, error objects, string.format of them
local ok, e = pcall(function() error({ code = 7 }) end)
local ok2, e2 = pcall(function() local x = nil; return x.y end)
print("errors", ok, e.code, ok2, (e2:gsub("^.-:%d+: ", "")))
print("end")
