#include "tests/trust/RandomRunner.h"

#include "services/engine/ledger/BalanceLedger.h"
#include "tests/support/JsonEdit.h"
#include "tests/trust/LedgerAudit.h"

#include <QSqlError>
#include <QSqlQuery>

#include <latch>

namespace md::test::randomops {

using namespace Qt::StringLiterals;

QString said(const api::ApiError &error)
{
    return u"%1 %2: %3"_s.arg(error.status).arg(error.code, error.message);
}

Runner::Runner(engine::Engine &engine, engine::KeyContext key, engine::KeyContext liveKey,
               Model &model, std::atomic<qint64> &now)
    : m_engine(engine)
    , m_api(engine)
    , m_key(std::move(key))
    , m_liveKey(std::move(liveKey))
    , m_model(model)
    , m_now(now)
{
    // At most three threads, never ended: each keeps its database connection.
    m_racers.setMaxThreadCount(3);
    m_racers.setExpiryTimeout(-1);
    checkAudit(); // what the load wrote is not the sequences'
    m_problems.clear();
}

void Runner::problem(const Operation &op, const QString &what)
{
    m_problems.append(u"#%1 %2: %3"_s.arg(op.index).arg(op.route, what));
}

bool Runner::refusalIsSound(const Operation &op, const api::ApiError &error)
{
    if (error.status >= 400 && error.status < 500)
        return true;
    problem(op, u"answered %1 (never a 5xx, and a refusal is a 4xx)"_s.arg(said(error)));
    return false;
}

void Runner::run(const QList<Operation *> &ops, OperationMaker &maker)
{
    Operation &op = *ops.first();
    const QString &route = op.route;
    if (route == "balances.track_tokens"_L1)
        runTracks(ops);
    else if (route == "track_queue.drain"_L1)
        drain(op);
    else if (route == "track_queue.retry"_L1 || route == "track_queue.discard"_L1)
        failedEvents(op, maker);
    else if (route == "meterdesk/balances.adjust"_L1)
        adjust(op);
    else if (route == "meterdesk/balances.create"_L1)
        create(op);
    else if (route == "billing.import"_L1)
        import(op);
    else if (route == "products"_L1)
        product(op);
    else if (route == "rewards.update"_L1)
        reward(op);
    else if (route == "meterdesk/customers.update_billing_controls"_L1)
        controls(op);
    else if (route == "environments.promote"_L1)
        promote(op, maker);
    else if (route == "platform/organizations/stripe"_L1)
        link(op);
    else if (route == "clock.advance"_L1) {
        m_now.fetch_add(op.advanceMs);
        m_model.passTime(now(), m_now.load());
    } else if (route == "clock.race"_L1)
        clockRace(op);
    else
        qFatal("no such operation: %s", qPrintable(route));
}

QList<api::BalanceRow> Runner::list(const engine::KeyContext &key,
                                    std::optional<QString> customerId,
                                    std::optional<QString> featureId)
{
    api::ListBalancesRequest request;
    request.customerId = std::move(customerId);
    request.featureId = std::move(featureId);
    request.statuses = {api::BalanceStatus::Active, api::BalanceStatus::Expired};
    request.limit = api::ListBalancesRequest::MaxLimit;
    QList<api::BalanceRow> rows;
    for (;;) {
        auto page = m_api.listBalances(key, request);
        if (!page) {
            m_problems.append(u"balances.list: "_s + said(page.error()));
            return rows;
        }
        rows += page.value().list;
        if (!page.value().hasMore)
            return rows;
        request.startCursor = *page.value().nextCursor;
    }
}

bool Runner::overflows(const api::TrackTokensRequest &request) const
{
    // docs/billing-controls.md, "How a call is held", 1.
    return request.overageBehavior == api::OverageBehavior::Overflow &&
           m_model.controlsFor(request.customerId, request.entityId)
               .overageAllowedFor(Credits)
               .value_or(true);
}

void Runner::compareBalances()
{
    const qint64 at = now();
    QSet<QString> listed;
    for (const api::BalanceRow &row : list(m_key, std::nullopt, std::nullopt)) {
        listed.insert(row.id);
        const ModelBalance *model = m_model.balance(row.id);
        if (!model) {
            m_problems.append(
                u"balance %1 (%2, %3) appeared: no call the model knows made it"_s.arg(
                    row.id, row.customerId, row.featureId));
            continue;
        }
        QStringList differences;
        if (row.remaining != model->remaining)
            differences << u"remaining %1, the model says %2"_s.arg(row.remaining.toString(),
                                                                    model->remaining.toString());
        if (row.usage != model->usage)
            differences << u"usage %1, the model says %2"_s.arg(row.usage.toString(),
                                                                model->usage.toString());
        if (row.rollovers.size() != model->rollovers.size())
            differences << u"%1 rollovers, the model says %2"_s.arg(row.rollovers.size())
                               .arg(model->rollovers.size());
        else
            for (qsizetype r = 0; r < row.rollovers.size(); ++r)
                if (row.rollovers.at(r).balance != model->rollovers.at(r).balance)
                    differences << u"rollover %1 holds %2, the model says %3"_s.arg(r).arg(
                        row.rollovers.at(r).balance.toString(),
                        model->rollovers.at(r).balance.toString());
        if ((row.status == api::BalanceStatus::Expired) != m_model.expired(*model, at))
            differences << u"status %1, the model says %2"_s.arg(
                api::toWire(row.status), m_model.expired(*model, at) ? u"expired"_s : u"active"_s);
        if (row.customerId != model->customerId || row.featureId != model->featureId ||
            row.entityId != model->entityId)
            differences << u"belongs to %1/%2/%3"_s.arg(
                row.customerId, row.entityId.value_or(u"-"_s), row.featureId);
        if (!differences.isEmpty())
            m_problems.append(u"balance %1: %2"_s.arg(row.id, differences.join(u"; "_s)));
    }
    for (const ModelBalance &model : std::as_const(m_model.balances))
        if (!listed.contains(model.id))
            m_problems.append(u"balance %1 is gone"_s.arg(model.id));
}

void Runner::compareLive()
{
    for (const api::BalanceRow &row : list(m_liveKey, std::nullopt, std::nullopt))
        if (const auto model = m_model.live.constFind(row.id);
            model == m_model.live.cend() || model->first.held() != engine::BalanceLedger::held(row))
            m_problems.append(u"production balance %1 holds %2, the model says %3"_s.arg(
                row.id, engine::BalanceLedger::held(row).toString(),
                model == m_model.live.cend() ? u"none"_s : model->first.held().toString()));
}

void Runner::verifyLedger()
{
    auto db = m_engine.database().connection();
    if (!db) {
        m_problems.append(said(db.error()));
        return;
    }
    const LedgerAudit audit(db.value());
    for (const QString &difference : audit.trialBalance())
        m_problems.append(u"workspace verify: "_s + difference);
    for (const QString &broken : audit.integrity())
        m_problems.append(u"database: "_s + broken);
    // The clock advances close periods: none twice, none skipped.
    for (const QString &gap : audit.statements(u"%"_s, std::nullopt))
        m_problems.append(u"statements: "_s + gap);
    billedAsTheModelSays(db.value());
}

void Runner::billedAsTheModelSays(const QSqlDatabase &db)
{
    // Every line the sandbox's resets and purchases wrote, by customer.
    QSqlQuery lines(db);
    lines.prepare(u"SELECT c.id, l.line, l.at FROM charge_lines l JOIN customers c"
                  " ON c.pk = l.customer_pk WHERE l.org_pk = ? AND l.env = ? ORDER BY l.at"_s);
    lines.addBindValue(m_key.scope.orgPk);
    lines.addBindValue(m_key.scope.envWord());
    if (!lines.exec()) {
        m_problems.append(u"charge lines: "_s + lines.lastError().text());
        return;
    }
    QMap<QString, Decimal> written;
    QMap<QString, QStringList> writtenLines;
    while (lines.next()) {
        const api::JsonValue line =
            api::JsonValue::parse(lines.value(1).toString().toUtf8(), u"a charge line"_s).value();
        written[lines.value(0).toString()] = written[lines.value(0).toString()].runningSum(
            Decimal::parse(line.value("amount"_L1).numberText()).value_or(Decimal()));
        writtenLines[lines.value(0).toString()].append(
            u"at %1: %2"_s.arg(lines.value(2).toLongLong())
                .arg(line.value("description"_L1).toString()));
    }
    QSet<QString> customers;
    for (auto it = written.cbegin(); it != written.cend(); ++it)
        customers.insert(it.key());
    for (auto it = m_model.billed.cbegin(); it != m_model.billed.cend(); ++it)
        customers.insert(it.key());
    for (const QString &customer : std::as_const(customers))
        if (written.value(customer) != m_model.billed.value(customer))
            m_problems.append(
                u"customer %1: its resets and purchases billed %2, the model"
                " works out %3 (docs/billing.md); the lines: %4; the model's: %5"_s.arg(
                    customer, written.value(customer).toString(),
                    m_model.billed.value(customer).toString(),
                    writtenLines.value(customer).join(u"; "_s),
                    m_model.billedLines.value(customer).join(u"; "_s)));
}

void Runner::checkAudit()
{
    QSet<QString> adjusted;
    QSet<QString> created;
    const engine::KeyContext *keys[] = {&m_key, &m_liveKey};
    for (int k = 0; k < 2; ++k) {
        // Newest first, down to the newest entry the last look saw (ids
        // are opaque: they say nothing of their order).
        QString newest;
        api::AuditLogRequest request;
        request.limit = 200;
        for (bool seen = false; !seen;) {
            auto page = m_api.listAuditLog(*keys[k], request);
            if (!page) {
                m_problems.append(u"audit_log.list: "_s + said(page.error()));
                return;
            }
            for (const api::AuditEntry &entry : page.value().list) {
                if ((seen = entry.id == m_auditSeen[k]))
                    break;
                if (newest.isEmpty())
                    newest = entry.id;
                if (test::canonicalText(entry.before) == test::canonicalText(entry.after))
                    m_problems.append(
                        u"audit entry %1 (%2 of %3 %4) records no change: before and after are"
                        " the same"_s.arg(entry.id, entry.action, entry.resourceType,
                                          entry.resourceId));
                if (entry.action == "balance.adjust"_L1)
                    adjusted.insert(entry.after.value("ledger_id"_L1).toString());
                if (entry.action == "balance.create"_L1)
                    created.insert(entry.after.value("ledger_id"_L1).toString());
            }
            if (!page.value().hasMore)
                break;
            request.startCursor = *page.value().nextCursor;
        }
        if (!newest.isEmpty())
            m_auditSeen[k] = newest;
    }
    for (const QString &ledgerId : std::as_const(m_adjustments))
        if (!adjusted.contains(ledgerId))
            m_problems.append(u"adjustment %1 has no balance.adjust audit entry"_s.arg(ledgerId));
    m_adjustments.clear();
    for (const QString &ledgerId : std::as_const(m_creations))
        if (!created.contains(ledgerId))
            m_problems.append(u"balance made %1 has no balance.create audit entry"_s.arg(ledgerId));
    m_creations.clear();
}

// Three advances of the sandbox's clock at once (issue 51): two to one
// time, one past it. The clock ends at the latest and never goes back; each
// advance answered 200 reached its own time, the others are 400, and of the
// two to one time only one moves it.
void Runner::clockRace(Operation &op)
{
    const qint64 from = now();
    const QList<qint64> targets{from + op.advanceMs, from + op.advanceMs, from + 2 * op.advanceMs};
    QList<std::optional<api::Result<api::ClockAdvanced>>> answers(targets.size());
    std::latch ready(targets.size());
    for (qsizetype i = 0; i < targets.size(); ++i)
        m_racers.start([&, i] {
            api::ClockAdvance advance;
            advance.to = targets.at(i);
            ready.arrive_and_wait();
            answers[i] = m_api.advanceClock(m_key, advance);
        });
    m_racers.waitForDone();
    QStringList outcomes;
    for (qsizetype i = 0; i < targets.size(); ++i) {
        const api::Result<api::ClockAdvanced> &answer = *answers.at(i);
        outcomes << (answer ? u"200 %1"_s.arg(answer.value().now) : said(answer.error()));
        if (answer
                ? answer.value().now != targets.at(i)
                : refusalIsSound(op, answer.error()) && answer.error().code != "invalid_inputs"_L1)
            problem(
                op,
                u"advance %1 to %2 answered %3"_s.arg(i).arg(targets.at(i)).arg(outcomes.last()));
    }
    op.answer = outcomes.join(u"; "_s);
    if (*answers.at(0) && *answers.at(1))
        problem(op, u"two advances to one time both moved the clock"_s);
    const auto reading = m_api.clock(m_key);
    if (!reading || reading.value().now != targets.last())
        problem(op, u"the clock stands at %1 after advances to at most %2"_s
                        .arg(reading ? QString::number(reading.value().now) : said(reading.error()))
                        .arg(targets.last()));
    m_ahead += targets.last() - from;
    m_model.passTime(now(), m_now.load());
}

} // namespace md::test::randomops
