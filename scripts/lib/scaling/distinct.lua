-- scripts/lib/scaling/evidence.sh: random 512x512 regions of a 6000x4000 image at 256 px, each wrk thread its own
-- seed (random.lua gives every thread the same one): distinct renders
local prefix = os.getenv("TILE_PREFIX")
local n = 0
setup = function(thread) n = n + 1; thread:set("seed", n) end
init = function(args) math.randomseed(20261126 + 7919 * seed) end
request = function()
  local x = math.random(0, 6000 - 513); local y = math.random(0, 4000 - 513)
  return wrk.format("GET", string.format("%s/%d,%d,512,512/256,/0/default.jpg", prefix, x, y))
end
