// What the open billing periods owe so far, for revenue.summary's
// include_open (docs/billing.md, "Revenue so far"). Working it out prices
// every open period's rows (about 2 s at 200,000 customers), so the figures
// of each organization and environment are kept: a request that allows
// figures some seconds old is answered from them at once, and past half
// that age one refresh is worked out in the background, on a thread of its
// own, for the requests after it.
#pragma once

#include "services/api/ChargesPreview.h"
#include "services/api/Result.h"
#include "services/engine/sql/Database.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QHash>
#include <QMutex>
#include <QThreadPool>

#include <functional>
#include <memory>
#include <vector>

namespace md::engine {

// Every open period of a scope, its lines reduced to what a summary adds up.
struct OpenFigures
{
    qint64 asOf = 0; // the scope's clock when they were worked out
    QString currency;
    QList<QString> keys; // plan and feature ids, each once; index 0: none
    struct Line
    {
        qint32 plan = 0; // into keys
        qint32 feature = 0;
        api::ChargeKind kind = api::ChargeKind::Fixed;
        qint64 minor = 0; // the amount in minor units
    };
    struct Period
    {
        qint64 customerPk = 0;
        qint64 start = 0;
        qint64 end = 0;    // its statement is due then: no longer open
        quint32 first = 0; // its lines in `lines`
        quint32 count = 0;
    };
    std::vector<Period> periods;
    std::vector<Line> lines;

    // Worked out now, on `db`.
    static api::Result<OpenFigures> of(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                                       qint64 nowMs);
};

class OpenRevenue final
{
public:
    using Now = std::function<qint64(const Scope &)>;
    OpenRevenue(Database &database, Now now);
    ~OpenRevenue(); // settles first

    // Waits for a refresh under way to be kept.
    void settle();

    // The scope's figures no older than `maxAgeMs` at `nowMs`: kept ones,
    // else worked out now on `db` (and kept).
    api::Result<std::shared_ptr<const OpenFigures>>
    figures(const QSqlDatabase &db, const Scope &scope, qint64 nowMs, qint64 maxAgeMs);

private:
    void keep(const Scope &scope, std::shared_ptr<const OpenFigures> figures);
    void refresh(const Scope &scope);

    Database &m_database;
    Now m_now;
    QMutex m_mutex;
    struct Kept
    {
        std::shared_ptr<const OpenFigures> figures;
        bool refreshing = false;
        // Held while a request works them out: the requests that come
        // meanwhile (the Revenue page asks for twelve months at once) take
        // its figures instead of working out their own.
        std::shared_ptr<QMutex> working = std::make_shared<QMutex>();
    };
    QHash<QPair<qint64, int>, Kept> m_kept; // by organization and environment
    QThreadPool m_pool;                     // one thread, one connection
};

} // namespace md::engine
