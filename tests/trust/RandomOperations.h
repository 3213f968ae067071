// Random calls of every write route for tst_randomops, each as the JSON body
// a client would send, so a failing sequence can be read and replayed. Ids
// come from the model (mostly ones that exist, some that do not); amounts and
// token counts are often extreme (0, ±10^-9, ±(10^20 − 10^-9), 10^20, 2^53).
#pragma once

#include "tests/trust/RandomModel.h"

#include <QRandomGenerator>

namespace md::test::randomops {

struct Operation
{
    Operation(QString name, QByteArray json = {})
        : route(std::move(name))
        , body(std::move(json))
    {}

    // A route as the server names it, or one of the test's own steps:
    // "clock.advance" (time passes), "track_queue.drain" (the queue's worker
    // applies what is stored), "environments.promote" and
    // "track_queue.retry"/"track_queue.discard" (bodies chosen when they run,
    // from what the engine lists then).
    QString route;
    QByteArray body;
    std::optional<QString> idempotencyKey;
    QString pathId;       // products/{id}
    bool live = false;    // with the production key
    bool grouped = false; // sent at once with the grouped track calls beside it
    qint64 advanceMs = 0; // clock.advance
    int index = -1;       // its place in the sequence
    QString answer;       // what came back, for the report

    QString describe() const;
};

class OperationMaker final
{
public:
    OperationMaker(QRandomGenerator &random, const Model &model)
        : m_random(random)
        , m_model(model)
    {}

    // One operation, or a few track calls sent at once. `serial` numbers
    // them (it tags each track call's properties, and makes new ids).
    QList<Operation> next(qint64 nowMs, qint64 &serial);

    // Choices the runner makes when an operation runs.
    int roll(int sides) { return int(m_random.bounded(sides)); }
    bool chance(int percent) { return roll(100) < percent; }

private:
    Operation track(qint64 nowMs, qint64 serial, bool async);
    Operation adjust(qint64 serial);
    Operation create(qint64 nowMs, qint64 serial);
    Operation import(qint64 serial);
    Operation product(qint64 serial);
    Operation reward(qint64 serial);
    Operation controls(qint64 serial);
    Operation link();
    Operation clock();

    template <typename T> const T &pick(const QList<T> &list)
    {
        return list.at(roll(int(list.size())));
    }
    const ModelCustomer &anyCustomer() { return pick(m_model.customers); }
    QByteArray amount(bool signedAmount);
    Decimal exactAmount();
    QByteArray tokens();

    QRandomGenerator &m_random;
    const Model &m_model;
    QList<QByteArray> m_imports; // the last imports made, to send again
};

} // namespace md::test::randomops
