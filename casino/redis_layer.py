"""channels_redis's layer, its `group_send` in two round trips to Redis instead of four.

Every change at a table sends its `table.changed` event to the table's group
(tables.live.broadcast), so a loaded process makes hundreds of group sends a
second. channels_redis 4.3 makes four round trips for each: it drops the
group's expired members, reads the members, drops each member's expired
messages (a MULTI/EXEC pipeline) and adds the message to each (a Lua script,
its text sent every time). Each round trip is redis-py's Python on the event
loop, and a socket write and read that hand the interpreter to the database
threads and wait to take it back: in a PostgreSQL + Redis process under the
load test, the group sends were a fifth of the event loop's samples
(docs/performance.md, "Twenty-third check").

Here the first two steps are one script, and the last two another, both run
by their digest (EVALSHA), loaded into Redis once. What they do, the keys,
scores, expiries, capacities and the messages themselves (serialized by
channels_redis, with their `__asgi_channel__`) are channels_redis's own, so
any process on either class hears the other. A layer sharded over several
Redis hosts sends as channels_redis does.
"""

from __future__ import annotations

import logging
import time

from channels_redis.core import RedisChannelLayer
from redis.commands.core import AsyncScript

log = logging.getLogger(__name__)

# KEYS[1]: the group. ARGV[1]: members added before this time have expired.
_MEMBERS = b"""
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -1)
"""

# KEYS: the channels' keys. ARGV: a message for each key, then each key's capacity, then the time
# now, the keys' expiry in seconds, and the time before which a waiting message has expired.
# Returns how many keys were full (their message dropped), as channels_redis's script does.
_DELIVER = b"""
local count = #KEYS
local now, expiry, stale = ARGV[2 * count + 1], ARGV[2 * count + 2], ARGV[2 * count + 3]
local full = 0
for i = 1, count do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, stale)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[count + i]) then
        redis.call('ZADD', KEYS[i], now, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        full = full + 1
    end
end
return full
"""


# redis-py's script objects, run by their digest on the connection each send passes (`client=`),
# loaded into Redis on first use and again after a SCRIPT FLUSH or a restart.
members = AsyncScript(None, _MEMBERS)
deliver = AsyncScript(None, _DELIVER)


class RedisLayer(RedisChannelLayer):
    """`channels_redis.core.RedisChannelLayer`, its group sends in two round trips on one Redis host."""

    async def group_send(self, group: str, message: dict) -> None:
        if self.ring_size != 1:
            await super().group_send(group, message)
            return
        assert self.require_valid_group_name(group), "Group name not valid"
        connection = self.connection(0)
        now = time.time()
        found = await members([self._group_key(group)], [int(now) - self.group_expiry], client=connection)
        if not found:
            return
        channels = [name.decode("utf8") for name in found]
        # channels_redis's own messages: one per channel key, naming the channels it is for.
        by_connection, messages, capacities = self._map_channel_keys_to_connection(channels, message)
        keys = by_connection[0]
        args = [messages[key] for key in keys] + [capacities[key] for key in keys]
        full = await deliver(keys, [*args, now, self.expiry, int(now) - int(self.expiry)], client=connection)
        if full > 0:
            log.info("%s of %s channels over capacity in group %s", full, len(channels), group)
