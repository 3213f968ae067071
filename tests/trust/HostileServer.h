// What the hostile-client tests share: a trust workspace served by a real
// meterdesk-server with short timeouts, requests written by hand, and a
// check that the server still serves after an attack.
#pragma once

#include "tests/support/RawConnection.h"
#include "tests/support/ServerProcess.h"
#include "tests/support/TestDatabase.h"
#include "tests/trust/TrustWorkspace.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace md::test {

inline constexpr int HostileCustomers = 8;
inline const QByteArray Bearer = "Authorization: Bearer " + TrustKey.toLatin1();

inline QByteArray getCustomer(int customer)
{
    return RawConnection::request("POST", "/v1/meterdesk/customers.get",
                                  R"({"customer_id":"c)" + QByteArray::number(customer) + R"("})",
                                  {Bearer});
}

inline QString codeOf(const RawConnection::Answer &answer)
{
    return QJsonDocument::fromJson(answer.body)
        .object()
        .value(QLatin1StringView("code"))
        .toString();
}

// The status of a well-behaved call on a fresh connection to `port`, for
// polling: after a flood the per-address limit answers 429 until the server
// has closed what the flood left open.
inline int oneCall(quint16 port)
{
    RawConnection connection(port);
    connection.send(getCustomer(1));
    return connection.read().status;
}

// A server on a fresh trust workspace, with 1 s header and body timeouts
// and a 2 s idle timeout, so the tests of those take seconds.
class HostileServer final
{
public:
    // Empty when serving, else why not.
    QString start()
    {
        using namespace Qt::StringLiterals;
        if (m_database.location().isEmpty())
            return m_database.error();
        if (const QString loaded = loadTrustWorkspace(m_database.location(), HostileCustomers);
            !loaded.isEmpty())
            return loaded;
        const QString started = m_server.start(
            m_database.location(),
            {u"--catalogue"_s, QStringLiteral(MD_TEST_CONFORMANCE_DIR "/pricing-catalogue.json"),
             u"--header-timeout"_s, u"1"_s, u"--body-timeout"_s, u"1"_s, u"--idle-timeout"_s,
             u"2"_s});
        m_port = quint16(m_server.url().port());
        return started;
    }
    int stop() { return m_server.stop(); }

    quint16 port() const { return m_port; }
    const QString &database() const { return m_database.location(); }
    ServerProcess &process() { return m_server; }

    int oneCall() const { return test::oneCall(m_port); }

private:
    TestDatabase m_database;
    ServerProcess m_server;
    quint16 m_port = 0;
};

} // namespace md::test
