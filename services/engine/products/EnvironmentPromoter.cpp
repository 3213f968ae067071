#include "services/engine/products/EnvironmentPromoter.h"

#include "services/engine/ledger/AuditTrail.h"
#include "services/engine/products/ProductReads.h"
#include "services/engine/products/ProductUpdater.h"
#include "services/engine/products/RecordDiff.h"
#include "services/engine/products/RewardUpdater.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"
#include "services/engine/webhooks/WebhookOutbox.h"

#include <QMap>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {

// What one environment holds, by id: the newest version of each product
// not archived (an archived product counts as none), and every reward.
struct Holdings
{
    QMap<QString, api::Product> products;
    QMap<QString, api::RewardEntry> rewards;
};

api::Result<Holdings> holdings(const QSqlDatabase &db, const Scope &scope)
{
    auto products = ProductReads::products(db, scope);
    if (!products)
        return products.error();
    auto rewards = ProductReads::rewards(db, scope);
    if (!rewards)
        return rewards.error();
    Holdings held;
    QMap<QString, api::Product> newest;
    for (const api::Product &product : std::as_const(products.value().list))
        if (!newest.contains(product.id) || newest[product.id].version < product.version)
            newest[product.id] = product;
    for (const api::Product &product : std::as_const(newest))
        if (!product.archived)
            held.products.insert(product.id, product);
    for (const api::RewardEntry &reward : std::as_const(rewards.value().list))
        held.rewards.insert(api::idOf(reward), reward);
    return held;
}

template <typename Record>
std::optional<Record> find(const QMap<QString, Record> &map, const QString &id)
{
    const auto found = map.constFind(id);
    return found == map.cend() ? std::nullopt : std::optional<Record>(*found);
}

template <typename Record>
QList<api::DiffEntry<Record>> differences(const QMap<QString, Record> &sandbox,
                                          const QMap<QString, Record> &production)
{
    QStringList ids = sandbox.keys();
    for (const QString &id : production.keys())
        if (!sandbox.contains(id))
            ids.append(id);
    std::sort(ids.begin(), ids.end());
    QList<api::DiffEntry<Record>> entries;
    for (const QString &id : std::as_const(ids)) {
        api::DiffEntry<Record> entry;
        entry.id = id;
        entry.sandbox = find(sandbox, id);
        entry.production = find(production, id);
        entry.fields = RecordDiff::differences(
            entry.sandbox ? RecordDiff::comparable(*entry.sandbox) : api::JsonValue(),
            entry.production ? RecordDiff::comparable(*entry.production) : api::JsonValue());
        if (entry.fields.isEmpty())
            continue;
        entry.change = !entry.production ? api::DiffChange::Added
                       : !entry.sandbox  ? api::DiffChange::Removed
                                         : api::DiffChange::Changed;
        entries.append(entry);
    }
    return entries;
}

template <typename Record> bool same(const std::optional<Record> &a, const std::optional<Record> &b)
{
    if (!a || !b)
        return !a && !b;
    return RecordDiff::comparable(*a) == RecordDiff::comparable(*b);
}

// The request's words for an error: products[0] ("pro").
QString stepName(const QString &list, qsizetype index, const QString &id)
{
    return u"%1[%2] (\"%3\")"_s.arg(list).arg(index).arg(id);
}

// The first step whose `to` is what its `production` is already: it would
// change nothing yet fill the audit log, so it is refused up front.
template <typename Record>
std::optional<ApiError> idleStep(const QList<api::PromotionStep<Record>> &steps,
                                 const QString &list)
{
    for (qsizetype i = 0; i < steps.size(); ++i)
        if (const api::PromotionStep<Record> &step = steps.at(i); same(step.production, step.to))
            return ApiError::invalidInputs(stepName(list, i, step.id),
                                           u"changes nothing: production already holds what "
                                           "\"to\" asks; leave the step out"_s);
    return std::nullopt;
}

ApiError atStep(ApiError error, const QString &step)
{
    error.message = step + u": "_s + error.message;
    return error;
}

class Promotion final
{
public:
    Promotion(const QSqlDatabase &db, Dialect dialect, const Scope &caller,
              const api::AuditActor &actor, qint64 nowMs)
        : m_db(db)
        , m_dialect(dialect)
        , m_caller(caller)
        , m_production{caller.orgPk, Environment::Production, caller.keyPk}
        , m_actor(actor)
        , m_now(nowMs)
    {}

    api::Result<api::EnvironmentPromoted> run(const api::EnvironmentPromotion &request)
    {
        auto held = holdings(m_db, m_production);
        if (!held)
            return held.error();
        api::EnvironmentPromoted promoted;
        for (qsizetype i = 0; i < request.products.size(); ++i) {
            const auto &step = request.products.at(i);
            const QString name = stepName(u"products"_s, i, step.id);
            const std::optional<api::Product> before = find(held.value().products, step.id);
            if (auto fresh = unchanged(before, step.production, name, u"product"_s); !fresh)
                return fresh.error();
            auto after = promoteProduct(step);
            if (!after)
                return atStep(after.error(), name);
            if (auto recorded = audit(u"product"_s, step.id, before, after.value()); !recorded)
                return recorded.error();
            promoted.products.append({step.id, before, after.value()});
        }
        for (qsizetype i = 0; i < request.rewards.size(); ++i) {
            const auto &step = request.rewards.at(i);
            const QString name = stepName(u"rewards"_s, i, step.id);
            const std::optional<api::RewardEntry> before = find(held.value().rewards, step.id);
            if (auto fresh = unchanged(before, step.production, name, u"reward"_s); !fresh)
                return fresh.error();
            auto after = promoteReward(step);
            if (!after)
                return atStep(after.error(), name);
            if (auto recorded = audit(u"reward"_s, step.id, before, after.value()); !recorded)
                return recorded.error();
            promoted.rewards.append({step.id, before, after.value()});
        }
        return promoted;
    }

private:
    template <typename Record>
    api::Result<api::Done> unchanged(const std::optional<Record> &now,
                                     const std::optional<Record> &shown, const QString &name,
                                     const QString &what)
    {
        if (same(now, shown))
            return api::Done{};
        return ApiError{409, api::ErrorCode::ProductionChanged,
                        u"%1: production's %2 changed since the differences were read; compare "
                        "the environments again before promoting"_s.arg(name, what)};
    }

    api::Result<std::optional<api::Product>>
    promoteProduct(const api::PromotionStep<api::Product> &step)
    {
        auto any = queryRows(m_db,
                             u"SELECT 1 FROM products WHERE org_pk = ? AND env = ? AND id = ?"
                             " LIMIT 1"_s,
                             {m_production.orgPk, m_production.envWord(), step.id});
        if (!any)
            return any.error();
        const bool stored = !any.value().isEmpty();
        if (!step.to) {
            // None in the sandbox: production's is archived (customers may be on it).
            api::UpdateProductRequest archive;
            archive.archived = true;
            if (stored)
                if (auto archived = update(step.id, archive); !archived)
                    return archived.error();
            return std::optional<api::Product>();
        }
        const api::Product &to = *step.to;
        if (!stored) {
            auto created = ProductUpdater::create(m_db, m_dialect, m_production, to, m_now);
            if (!created)
                return created.error();
            return std::optional(created.value());
        }
        api::UpdateProductRequest request;
        request.name = to.name;
        request.isAddOn = to.isAddOn;
        request.isDefault = to.isDefault;
        request.group = to.group;
        request.archived = false;
        request.items = to.items;
        request.freeTrial = to.freeTrial;
        auto updated = update(step.id, request);
        if (!updated)
            return updated.error();
        return std::optional(updated.value());
    }

    api::Result<api::Product> update(const QString &id, const api::UpdateProductRequest &request)
    {
        return ProductUpdater::update(m_db, m_dialect, m_production, id, request, m_now);
    }

    api::Result<std::optional<api::RewardEntry>>
    promoteReward(const api::PromotionStep<api::RewardEntry> &step)
    {
        if (!step.to) {
            if (auto removed = RewardUpdater::remove(m_db, m_production, step.id); !removed)
                return removed.error();
            return std::optional<api::RewardEntry>();
        }
        auto replaced = RewardUpdater::replace(m_db, m_dialect, m_production, *step.to, m_now);
        if (!replaced)
            return replaced.error();
        return std::optional(replaced.value());
    }

    template <typename Record>
    api::Result<api::Done> audit(const QString &what, const QString &id,
                                 const std::optional<Record> &before,
                                 const std::optional<Record> &after)
    {
        const AuditTrail::Change change{what + u".promote"_s, what, id,
                                        before ? jsonOf(*before) : api::JsonValue::null(),
                                        after ? jsonOf(*after) : api::JsonValue::null()};
        if (auto recorded =
                AuditTrail::record(m_db, m_dialect, m_production, m_actor, change, m_now);
            !recorded)
            return recorded;
        // The console on its own workspace reads the sandbox's log.
        if (m_caller.env != Environment::Production)
            return AuditTrail::record(m_db, m_dialect, m_caller, m_actor, change, m_now);
        return api::Done{};
    }

    QSqlDatabase m_db;
    Dialect m_dialect;
    Scope m_caller;
    Scope m_production;
    api::AuditActor m_actor;
    qint64 m_now;
};

} // namespace

api::Result<api::EnvironmentDiff> EnvironmentPromoter::diff(const QSqlDatabase &db, qint64 orgPk)
{
    auto sandbox = holdings(db, {orgPk, Environment::Sandbox});
    if (!sandbox)
        return sandbox.error();
    auto production = holdings(db, {orgPk, Environment::Production});
    if (!production)
        return production.error();
    return api::EnvironmentDiff{differences(sandbox.value().products, production.value().products),
                                differences(sandbox.value().rewards, production.value().rewards)};
}

api::Result<api::EnvironmentPromoted>
EnvironmentPromoter::promote(const QSqlDatabase &db, Dialect dialect, const Scope &caller,
                             const api::AuditActor &actor, const api::EnvironmentPromotion &request,
                             qint64 nowMs)
{
    std::optional<ApiError> idle = idleStep(request.products, u"products"_s);
    if (!idle)
        idle = idleStep(request.rewards, u"rewards"_s);
    if (idle)
        return *idle;
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    // One promotion (or product update) of an organization at a time: each
    // checks production and then writes it.
    if (auto locked = ProductUpdater::lockProducts(db, dialect, caller.orgPk); !locked)
        return locked.error();
    auto promoted = Promotion(db, dialect, caller, actor, nowMs).run(request);
    if (!promoted)
        return promoted.error();
    if (!promoted.value().products.isEmpty() || !promoted.value().rewards.isEmpty())
        if (auto told = WebhookOutbox::record(
                db, dialect, {caller.orgPk, Environment::Production, caller.keyPk}, nowMs,
                u"environment.promoted"_s, jsonOf(promoted.value()));
            !told)
            return told.error();
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return promoted;
}

} // namespace md::engine
