// How errors leave the server (services/server/ApiAnswers): {message, code}
// bodies, an internal error reduced to a reference, and every 503 (busy,
// shutting down, queue full) telling the client when to try again.
#include "services/server/ApiAnswers.h"

#include "services/api/ErrorBody.h"
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

QByteArray header(const http::HttpResponse &response, QByteArrayView name)
{
    for (const auto &[key, value] : response.headers)
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    return {};
}

} // namespace

class TestErrorAnswers final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyUnavailableSaysWhenToComeBack_data()
    {
        QTest::addColumn<QString>("code");
        QTest::newRow("queue full") << u"queue_full"_s;
        QTest::newRow("shutting down") << server::shuttingDown().code;
        QTest::newRow("database unavailable") << u"database_unavailable"_s;
    }

    void everyUnavailableSaysWhenToComeBack()
    {
        QFETCH(QString, code);
        const http::HttpResponse answer =
            server::errorAnswer(api::ApiError::received(503, code, u"try again"_s));
        QCOMPARE(answer.status, 503);
        QCOMPARE(header(answer, "Retry-After"), QByteArray("1"));
        QCOMPARE(api::ErrorBody::read(503, answer.body).code, code);
    }

    void otherErrorsCarryNoRetryAfter()
    {
        const http::HttpResponse refused =
            server::errorAnswer({429, api::ErrorCode::UsageLimitReached, u"limit"_s});
        QCOMPARE(refused.status, 429);
        QVERIFY(header(refused, "Retry-After").isEmpty());
        const http::HttpResponse internal = server::errorAnswer(api::ApiError::internal(u"x"_s));
        QCOMPARE(internal.status, 500);
        QVERIFY(!internal.body.contains("\"x\"")); // the details stay in the log
    }
};

QTEST_GUILESS_MAIN(TestErrorAnswers)
#include "tst_erroranswers.moc"
