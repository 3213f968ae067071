// Which database a workspace lives in: what SQL a statement may use.
#pragma once

namespace md::engine {

enum class Dialect { Sqlite, Postgres };

} // namespace md::engine
