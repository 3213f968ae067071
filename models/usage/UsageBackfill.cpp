#include "models/usage/UsageBackfill.h"

#include "services/backend/BillingBackend.h"

#include <QCryptographicHash>

#include <algorithm>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

QString balanceKey(const api::TrackTokensRequest &call, const QString &featureId)
{
    return call.customerId + u'\x1f' + call.entityId.value_or(QString()) + u'\x1f' + featureId;
}

} // namespace

QList<UsageBackfill::Item> UsageBackfill::order(const QList<UsageRow> &rows)
{
    QList<Item> items;
    for (const UsageRow &row : rows)
        if (row.event)
            items.append({row.line, *row.event});
    std::stable_sort(items.begin(), items.end(), [](const Item &a, const Item &b) {
        return a.event.call.customerId < b.event.call.customerId;
    });
    return items;
}

QByteArray UsageBackfill::orderHash(const QList<Item> &items)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const Item &item : items)
        hash.addData((item.event.idempotencyKey.value_or(QString()) + u'\n').toUtf8());
    return hash.result().toHex();
}

UsageBackfill::UsageBackfill(backend::BillingBackend *backend, QObject *parent)
    : QObject(parent)
    , m_backend(backend)
{}

void UsageBackfill::setItems(QList<Item> items)
{
    // A run on the old items answers no more (Back, then another file).
    ++m_generation;
    m_running = false;
    m_items = std::move(items);
}

void UsageBackfill::startDryRun()
{
    m_changes.clear();
    m_changeOf.clear();
    m_noBalance.clear();
    m_noBalanceOf.clear();
    m_refusals.clear();
    m_dryRun = true;
    m_next = 0;
    begin();
}

void UsageBackfill::startCommit(qint64 from)
{
    m_refusals.clear();
    m_applied = 0;
    m_alreadyRecorded = 0;
    m_dryRun = false;
    m_next = std::clamp<qint64>(from, 0, m_items.size());
    begin();
}

void UsageBackfill::begin()
{
    ++m_generation; // a run started again leaves the earlier one's answers unheard
    m_running = true;
    m_cancelled = false;
    m_error.clear();
    m_inFlight.clear();
    Q_EMIT progress(m_next, m_items.size());
    fill();
}

void UsageBackfill::cancel()
{
    m_cancelled = true;
}

void UsageBackfill::fill()
{
    if (m_filling) // an answer that came at once, inside send(): the loop below goes on
        return;
    m_filling = true;
    while (m_running && !m_cancelled && sentTo() < m_items.size() &&
           m_inFlight.size() < (m_dryRun ? 1 : CommitsInFlight) &&
           (m_inFlight.empty() || endsCustomer(m_inFlight.back().to)))
        send(sentTo(), requestEnd(sentTo()));
    m_filling = false;
    if (m_running && m_inFlight.empty())
        stop(m_cancelled && m_next < m_items.size(), {});
}

qint64 UsageBackfill::sentTo() const
{
    // Requests are sent back to back from the first event not answered in order.
    return m_inFlight.empty() ? m_next : m_inFlight.back().to;
}

qint64 UsageBackfill::requestEnd(qint64 from) const
{
    const qint64 to =
        std::min<qint64>(from + (m_dryRun ? DryRunEvents : CommitEvents), m_items.size());
    // A customer's events together where they fit: cut where one ends.
    qint64 cut = to;
    while (cut > from && !endsCustomer(cut))
        --cut;
    return cut > from ? cut : to;
}

bool UsageBackfill::endsCustomer(qint64 to) const
{
    return to >= m_items.size() || to == 0 ||
           m_items.at(to - 1).event.call.customerId != m_items.at(to).event.call.customerId;
}

void UsageBackfill::send(qint64 from, qint64 to)
{
    api::UsageBatchRequest request;
    request.dryRun = m_dryRun;
    request.events.reserve(to - from);
    for (qint64 i = from; i < to; ++i)
        request.events.append(m_items.at(i).event);
    m_inFlight.push_back({from, to, std::nullopt});
    m_backend->usageBatch(request).then(this,
                                        [this, from, to, generation = m_generation](
                                            const api::Result<api::UsageBatchResponse> &answer) {
                                            if (generation == m_generation)
                                                answered(from, to, answer);
                                        });
}

void UsageBackfill::answered(qint64 from, qint64 to,
                             const api::Result<api::UsageBatchResponse> &answer)
{
    QString problem;
    if (!answer)
        problem = answer.error().message;
    else if (answer.value().results.size() != to - from)
        problem = tr("the server answered %1 of %2 events")
                      .arg(answer.value().results.size())
                      .arg(to - from);
    for (Request &request : m_inFlight)
        if (request.from == from) {
            request.failed = !problem.isEmpty();
            if (!request.failed)
                request.answer = answer.value();
        }
    if (!problem.isEmpty() && m_error.isEmpty()) {
        // Nothing more is sent; the run ends once the other request is answered,
        // so a run started again never has a customer's events out twice.
        m_error = problem;
        m_cancelled = true;
    }
    bool advanced = false;
    while (!m_inFlight.empty() && m_inFlight.front().answer) {
        const Request done = std::move(m_inFlight.front());
        m_inFlight.pop_front();
        if (m_dryRun)
            dryRunAnswered(done.from, done.to, *done.answer);
        else
            commitAnswered(done.from, done.to, *done.answer);
        m_next = done.to;
        advanced = true;
    }
    if (advanced)
        Q_EMIT progress(m_next, m_items.size());
    if (!m_error.isEmpty()) {
        const bool waiting = std::any_of(m_inFlight.begin(), m_inFlight.end(),
                                         [](const Request &r) { return !r.answer && !r.failed; });
        if (!waiting)
            stop(false, m_error);
        return;
    }
    fill();
}

void UsageBackfill::dryRunAnswered(qint64 from, qint64 to, const api::UsageBatchResponse &response)
{
    // Each balance's usage as this request has left it so far. Summaries
    // leave rollovers out: the rise in usage is what came off `remaining`,
    // the rest of a deduction came from rollovers (docs/api.md, "usage.batch").
    QHash<QString, api::Decimal> usageOf;
    for (qint64 i = from; i < to; ++i) {
        const Item &item = m_items.at(i);
        const api::UsageBatchResult &result = response.results.at(i - from);
        if (result.error) {
            refuse(item, *result.error);
            continue;
        }
        if (!result.body || !result.body->balance)
            continue;
        const api::BalanceSummary &after = *result.body->balance;
        const QString key = balanceKey(item.event.call, after.featureId);
        const bool begunHere = usageOf.contains(key);
        if (result.balanceBefore)
            usageOf.insert(key, result.balanceBefore->usage);
        if (result.body->deductions.isEmpty() && after.breakdown.isEmpty()) {
            noteNoBalance(item, *result.body);
            continue;
        }
        api::Decimal deducted;
        for (const api::Deduction &part : result.body->deductions)
            deducted = deducted.runningSum(part.value);
        // A server that does not tell the balance before: as if nothing came from rollovers.
        const api::Decimal usedBefore =
            usageOf.value(key, after.usage.runningSum(deducted.negated()));
        const api::Decimal used = after.usage.runningSum(usedBefore.negated());
        usageOf.insert(key, after.usage);
        auto found = m_changeOf.find(key);
        if (found == m_changeOf.end()) {
            found = m_changeOf.insert(key, m_changes.size());
            m_changes.append({item.event.call.customerId,
                              item.event.call.entityId,
                              after.featureId,
                              after.remaining.runningSum(used),
                              {},
                              {},
                              {},
                              0,
                              false});
        } else if (!begunHere) {
            m_changes[*found].estimated = true; // split across requests
        }
        Change &change = m_changes[*found];
        change.after = after.remaining;
        change.used = change.used.runningSum(used);
        change.fromRollovers = change.fromRollovers.runningSum(deducted.runningSum(used.negated()));
        ++change.events;
    }
}

void UsageBackfill::commitAnswered(qint64 from, qint64 to, const api::UsageBatchResponse &response)
{
    for (qint64 i = from; i < to; ++i) {
        const api::UsageBatchResult &result = response.results.at(i - from);
        if (!result.error)
            ++m_applied;
        else if (result.error->code == "duplicate_idempotency_key"_L1)
            ++m_alreadyRecorded; // committed by an earlier run
        else
            refuse(m_items.at(i), *result.error);
    }
}

void UsageBackfill::noteNoBalance(const Item &item, const api::TrackTokensResponse &answer)
{
    const QString key = balanceKey(item.event.call, answer.balance->featureId);
    auto found = m_noBalanceOf.find(key);
    if (found == m_noBalanceOf.end()) {
        found = m_noBalanceOf.insert(key, m_noBalance.size());
        m_noBalance.append({item.event.call.customerId,
                            item.event.call.entityId,
                            answer.balance->featureId,
                            0,
                            {}});
    }
    NoBalance &noted = m_noBalance[*found];
    ++noted.events;
    noted.value = noted.value.runningSum(answer.value);
}

void UsageBackfill::refuse(const Item &item, const api::ApiError &error)
{
    m_refusals.append({item.line, item.event.call.customerId,
                       item.event.call.featureId.value_or(item.event.call.modelId), error.status,
                       error.code, error.message});
}

void UsageBackfill::stop(bool cancelled, const QString &error)
{
    ++m_generation; // after an error, the other request's answer is not heard
    m_running = false;
    m_inFlight.clear();
    // Always from the event loop, never from inside start…(): a backend
    // whose answer is ready at once would otherwise finish before the
    // caller has returned.
    QMetaObject::invokeMethod(
        this, [this, cancelled, error] { Q_EMIT finished(cancelled, error); },
        Qt::QueuedConnection);
}

} // namespace md::models
