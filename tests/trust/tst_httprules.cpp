// The HTTP rules a real meterdesk-server holds every request to (issue 18):
// malformed and ambiguous framing answered once and the connection closed,
// limits on header size and fields, a refused body read whole, one answer
// per request, and the header fields the API reads (bearer scheme,
// x-api-version, Idempotency-Key).
#include "tests/support/HttpClient.h"
#include "tests/trust/HostileServer.h"

using namespace md;
using namespace md::test;
using namespace Qt::StringLiterals;
using Ms = std::chrono::milliseconds;

class TestHttpRules final : public QObject
{
    Q_OBJECT

    HostileServer m_server;

private Q_SLOTS:
    void initTestCase()
    {
        const QString started = m_server.start();
        QVERIFY2(started.isEmpty(), qPrintable(started));
    }

    void cleanupTestCase() { QCOMPARE(m_server.stop(), 0); }

    void malformedFraming_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status");
        const QByteArray body = R"({"customer_id":"c1"})";
        const QByteArray start =
            "POST /v1/meterdesk/customers.get HTTP/1.1\r\nHost: x\r\n" + Bearer + "\r\n";
        QTest::newRow("two Content-Length values")
            << start + "Content-Length: 20\r\nContent-Length: 21\r\n\r\n" + body << 400;
        QTest::newRow("Content-Length not a number")
            << start + "Content-Length: abc\r\n\r\n" + body << 400;
        QTest::newRow("Content-Length and chunked")
            << start + "Content-Length: 20\r\nTransfer-Encoding: chunked\r\n\r\n" + body << 400;
        QTest::newRow("chunked and Content-Length")
            << start + "Transfer-Encoding: chunked\r\nContent-Length: 20\r\n\r\n" + body << 400;
        QTest::newRow("gzip, not chunked")
            << start + "Transfer-Encoding: gzip\r\n\r\n" + body << 400;
        QTest::newRow("bad chunk size")
            << start + "Transfer-Encoding: chunked\r\n\r\nzz\r\n" + body + "\r\n0\r\n\r\n"
            << 400;
        QTest::newRow("HTTP/9.9")
            << QByteArray("POST /v1/meterdesk/customers.get HTTP/9.9\r\nHost: x\r\n\r\n") << 505;
        QTest::newRow("not HTTP") << QByteArray("HELLO THERE\r\n\r\n") << 400;
        QTest::newRow("field without a colon")
            << start + "this line has no colon\r\nContent-Length: 20\r\n\r\n" + body << 400;
        QTest::newRow("no Host in HTTP/1.1")
            << QByteArray("POST /v1/meterdesk/customers.get HTTP/1.1\r\n" + Bearer +
                          "\r\nContent-Length: 20\r\n\r\n" + body)
            << 400;
        QByteArray manyFields = start;
        for (int i = 0; i < 5000; ++i)
            manyFields += "x-f" + QByteArray::number(i) + ": 1\r\n";
        QTest::newRow("5,000 fields") << manyFields + "Content-Length: 20\r\n\r\n" + body << 431;
        QTest::newRow("a 1 MB field") << start + "x-big: " + QByteArray(1 << 20, 'a') +
                                             "\r\nContent-Length: 20\r\n\r\n" + body
                                      << 431;
        QTest::newRow("body of 20 MB announced") << start + "Content-Length: 20000000\r\n\r\n"
                                                 << 413;
        QTest::newRow("HEAD, which no route takes")
            << QByteArray("HEAD /v1/balances.list HTTP/1.1\r\nHost: x\r\n\r\n") << 405;
        QTest::newRow("absolute-form target")
            << QByteArray("GET http://x/portal/a HTTP/1.1\r\nHost: x\r\n\r\n") << 400;
    }
    void malformedFraming()
    {
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        RawConnection connection(m_server.port());
        connection.send(request);
        const RawConnection::Answer answer = connection.read();
        QCOMPARE(answer.status, status);
        QVERIFY2(!codeOf(answer).isEmpty() || request.startsWith("HEAD"), answer.body.constData());
        QVERIFY2(answer.head.contains("connection: close"), answer.head.constData());
        // One answer, then the connection closes: nothing of the request is taken as another.
        QVERIFY(connection.waitForClose(Ms(5000)));
        QCOMPARE(connection.received(), QByteArray());
        QTRY_COMPARE_WITH_TIMEOUT(m_server.oneCall(), 200, 30000);
    }

    // A body refused for its size but sent whole (a client that reads no
    // answer until its upload ends) is read and dropped: 413, and the
    // connection serves on.
    void refusedBodyReadWhole()
    {
        RawConnection connection(m_server.port());
        QVERIFY(connection.send(RawConnection::request("POST", "/v1/meterdesk/customers.get",
                                                       QByteArray(2'000'000, ' '), {Bearer})));
        const RawConnection::Answer refused = connection.read();
        QCOMPARE(refused.status, 413);
        QCOMPARE(codeOf(refused), u"payload_too_large"_s);
        QVERIFY(connection.send(getCustomer(2)));
        QCOMPARE(connection.read().status, 200);
    }

    // RFC 9112 2.2: an empty line before a request line is ignored (a client
    // that ends a body with CRLF sends one), but not an endless stream of them.
    void emptyLinesBeforeARequest()
    {
        RawConnection connection(m_server.port());
        connection.send("\r\n" + getCustomer(1) + "\r\n");
        QCOMPARE(connection.read().status, 200);
        connection.send(getCustomer(2));
        QCOMPARE(connection.read().status, 200);
        connection.send(QByteArray(64, '\n') + getCustomer(3));
        QCOMPARE(connection.read().status, 400);
    }

    void oneAnswerPerRequest()
    {
        RawConnection connection(m_server.port());
        // A WebSocket upgrade is an ordinary request here: one answer, no switch.
        connection.send(RawConnection::request(
            "POST", "/v1/meterdesk/customers.get", R"({"customer_id":"c1"})",
            {Bearer, "Connection: Upgrade", "Upgrade: websocket", "Sec-WebSocket-Version: 13",
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="}));
        QCOMPARE(connection.read().status, 200);
        connection.send(getCustomer(3));
        QCOMPARE(connection.read().status, 200);
        QVERIFY(!connection.waitForClose(Ms(300)));
        QCOMPARE(connection.received(), QByteArray());
    }

    // RFC 9110 8.6 and 15.3.5: a 204 carries neither Content-Length nor
    // Content-Type, and the next answer on the connection follows it intact.
    void noContentHasNoBodyFields()
    {
        RawConnection connection(m_server.port());
        connection.send(RawConnection::request("POST", "/v1/balances.track_tokens",
                                               trackBody(u"c6"_s, 1, true), {Bearer}) +
                        getCustomer(3));
        const RawConnection::Answer accepted = connection.read();
        QCOMPARE(accepted.status, 204);
        QVERIFY2(!accepted.head.contains("content-length"), accepted.head.constData());
        QVERIFY2(!accepted.head.contains("content-type"), accepted.head.constData());
        QCOMPARE(connection.read().status, 200);
    }

    void headersTheApiReads_data()
    {
        QTest::addColumn<QList<QByteArray>>("fields");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        const QByteArray key = TrustKey.toLatin1();
        QTest::newRow("bearer in lower case")
            << QList<QByteArray>{"authorization: bearer " + key} << 200 << QString();
        QTest::newRow("BEARER") << QList<QByteArray>{"Authorization: BEARER " + key} << 200
                                << QString();
        QTest::newRow("Basic scheme")
            << QList<QByteArray>{"Authorization: Basic " + key} << 401 << u"unauthorized"_s;
        QTest::newRow("two Authorization fields")
            << QList<QByteArray>{Bearer, Bearer} << 401 << u"unauthorized"_s;
        QTest::newRow("x-api-version list")
            << QList<QByteArray>{Bearer, "x-api-version: 2.4.0,3.0.0"} << 400
            << u"invalid_api_version"_s;
        QTest::newRow("x-api-version twice")
            << QList<QByteArray>{Bearer, "x-api-version: 2.4.0", "x-api-version: 2.4.0"} << 400
            << u"invalid_api_version"_s;
        QTest::newRow("Idempotency-Key of 256 characters")
            << QList<QByteArray>{Bearer, "Idempotency-Key: " + QByteArray(256, 'k')} << 400
            << u"invalid_inputs"_s;
        QTest::newRow("Idempotency-Key with a space")
            << QList<QByteArray>{Bearer, "Idempotency-Key: a b"} << 400 << u"invalid_inputs"_s;
    }
    void headersTheApiReads()
    {
        QFETCH(QList<QByteArray>, fields);
        QFETCH(int, status);
        QFETCH(QString, code);
        RawConnection connection(m_server.port());
        connection.send(RawConnection::request("POST", "/v1/meterdesk/customers.get",
                                               R"({"customer_id":"c1"})", fields));
        const RawConnection::Answer answer = connection.read();
        QCOMPARE(answer.status, status);
        QCOMPARE(codeOf(answer), code);
    }

    void idempotencyKeysAreNotCut()
    {
        // Two keys alike in their first 255 characters are two calls, and
        // the longest allowed key works.
        HttpClient client(m_server.process().url(), TrustKey.toLatin1());
        const QByteArray prefix(254, 'p');
        for (const QByteArray &key : {QByteArray(prefix + 'a'), QByteArray(prefix + 'b')}) {
            const auto answer =
                client.post("/v1/balances.track_tokens", trackBody(u"c5"_s, 1, false),
                            {{"Idempotency-Key", key}});
            QCOMPARE(answer.status, 200);
        }
        const auto replay = client.post("/v1/balances.track_tokens", trackBody(u"c5"_s, 1, false),
                                        {{"Idempotency-Key", prefix + 'a'}});
        QCOMPARE(replay.status, 409);
    }
};

QTEST_GUILESS_MAIN(TestHttpRules)
#include "tst_httprules.moc"
