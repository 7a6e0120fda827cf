-- pokedexd's favorites in conky, without polling the service. conky loads this file
-- (pokedex.conkyrc: lua_load and the two hooks), which starts one follower:
--   pokectl widget --format conky --follow --output FILE
-- It replaces FILE whole whenever something shown changes (a favorite, the service going or
-- coming back) and makes no bus call otherwise, so the service still reaches its idle exit.
-- conky reads FILE (${lua_parse pokedex}) at each update: a small file, no bus call.
-- The follower's stdout is a pipe to conky: it ends when conky does, even if conky is killed.
local file = os.tmpname()
local follower

function conky_pokedex_start()
    local pokectl = os.getenv("POKECTL") or "pokectl"
    local width = os.getenv("POKEDEX_CONKY_WIDTH") or "36"
    follower = io.popen("exec " .. pokectl .. " widget --format conky --follow --width " .. width
        .. " --output '" .. file .. "'", "r")
end

function conky_pokedex()
    local f = io.open(file, "r")
    if not f then return "" end
    local text = f:read("*a")
    f:close()
    return text
end

function conky_pokedex_stop()
    if follower then follower:close() end
    os.remove(file)
end
