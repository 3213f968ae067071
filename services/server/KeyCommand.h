// `meterdesk-server keys list | create | revoke | roll`: the operator's
// levers on API keys, through the same routes as the API (ApiOperations),
// so the audit log records them (docs/operations.md, "API keys").
#pragma once

#include "services/engine/Engine.h"

#include <QTextStream>

namespace md::server {

struct KeyCommandArgs
{
    QString action; // list, create, revoke or roll
    QString org;
    QString env; // test or live
    QStringList scopes;
    QString name;
    QString id;
    QString expires; // create: an ISO 8601 moment, or a span from now (90d, 12h)
    QString overlap; // roll: a span (1h, 7d) the old secret keeps working
};

class KeyCommand final
{
public:
    KeyCommand(engine::Engine &engine, QTextStream &out, QTextStream &err);
    // What is wrong with the command line, before a database is opened.
    static std::optional<QString> usageProblem(const KeyCommandArgs &args);
    // 0 done, 1 the operation failed; the problem on `err`.
    int run(const KeyCommandArgs &args);
    // "90d", "12h", "30m", "45s" in ms; none for anything else.
    static std::optional<qint64> spanMs(const QString &text);

private:
    int fail(const api::ApiError &error);
    void print(const api::ApiKey &key);

    engine::Engine &m_engine;
    QTextStream &m_out;
    QTextStream &m_err;
};

} // namespace md::server
