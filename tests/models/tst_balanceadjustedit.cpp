// The balance adjustment form's rules: amounts as typed in the user's
// locale or plainly, never an ambiguous thousands separator; the problems
// it names; the change shown for review; how long it lasts, and where a
// credit lasts past a reset: a balance that does not reset, or a new one.
#include "models/balances/BalanceAdjustEdit.h"
#include "models/common/AmountFormat.h"
#include "tests/support/StubBackend.h"

#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using models::BalanceAdjustEdit;

namespace {

api::BalanceRow balance(const char *remaining)
{
    api::BalanceRow row;
    row.id = u"b_ann_credits"_s;
    row.remaining = *api::Decimal::parse(remaining);
    return row;
}

// Answers listBalances with `rows`, keeping the request.
class ListingBackend final : public test::StubBackend
{
public:
    QList<api::BalanceRow> rows;
    std::optional<api::ListBalancesRequest> asked;

    backend::Reply<api::ListBalancesResponse>
    listBalances(const api::ListBalancesRequest &request) override
    {
        asked = request;
        api::ListBalancesResponse page;
        page.list = rows;
        return QtFuture::makeReadyFuture(api::Result(page));
    }
};

api::BalanceRow monthly(const char *id, qint64 resetsAt)
{
    api::BalanceRow row = balance("40");
    row.id = QString::fromLatin1(id);
    row.customerId = u"ann"_s;
    row.featureId = u"credits"_s;
    row.includedGrant = api::Decimal::fromInteger(100);
    row.reset = api::Reset{api::ResetInterval::Month, std::nullopt, resetsAt, std::nullopt};
    return row;
}

} // namespace

class TestBalanceAdjustEdit final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void amountsAsTyped_data()
    {
        QTest::addColumn<QString>("locale");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("amount"); // empty: refused
        QTest::newRow("plain") << u"en_US"_s << u"-12.5"_s << u"-12.5"_s;
        QTest::newRow("plus sign") << u"en_US"_s << u" +100 "_s << u"100"_s;
        QTest::newRow("nine decimals") << u"en_US"_s << u"0.000000001"_s << u"0.000000001"_s;
        QTest::newRow("ten decimals") << u"en_US"_s << u"0.0000000001"_s << QString();
        QTest::newRow("German comma") << u"de_DE"_s << u"-12,5"_s << u"-12.5"_s;
        QTest::newRow("German, plain point") << u"de_DE"_s << u"12.5"_s << u"12.5"_s;
        QTest::newRow("German, both: ambiguous") << u"de_DE"_s << u"1.234,5"_s << QString();
        QTest::newRow("English thousands") << u"en_US"_s << u"1,234.5"_s << QString();
        QTest::newRow("words") << u"en_US"_s << u"ten"_s << QString();
    }
    void amountsAsTyped()
    {
        QFETCH(QString, locale);
        QFETCH(QString, text);
        QFETCH(QString, amount);
        const auto read = BalanceAdjustEdit::amountFrom(text, QLocale(locale));
        QCOMPARE(read.has_value(), !amount.isEmpty());
        if (read)
            QCOMPARE(read->toString(), amount);
    }

    void problemsNameTheField()
    {
        const QLocale english(u"en_US"_s);
        const api::BalanceRow row = balance("20");
        const auto problem = [&](const QString &amount, const QString &reason) {
            const auto request = BalanceAdjustEdit::request(row, amount, reason, english);
            return request ? QString() : request.error().message;
        };
        QVERIFY(problem(QString(), u"why"_s).startsWith(u"Amount"_s));
        QVERIFY(problem(u"0"_s, u"why"_s).contains(u"0 would not change"_s));
        QVERIFY(problem(u"1,000"_s, u"why"_s).contains(u"\"1,000\" is not an amount"_s));
        QVERIFY(problem(u"5"_s, u"  "_s).startsWith(u"Reason"_s));
        QVERIFY(problem(u"5"_s, QString(501, u'x')).contains(u"500"_s));
        // The API's rule for free text, before anything is sent.
        QVERIFY(problem(u"5"_s, u"refund "_s + QChar(0x202E) + u"gpj"_s).contains(u"U+202E"_s));
        QVERIFY(problem(u"5"_s, QString(3, QChar(0x200B))).startsWith(u"Reason"_s));
        QVERIFY(problem(u"5"_s, QString(499, u'x') + u"\U0001F600"_s).isEmpty());
        api::BalanceRow unlimited = row;
        unlimited.unlimited = true;
        QVERIFY(!BalanceAdjustEdit::request(unlimited, u"5"_s, u"why"_s, english));

        const auto request = BalanceAdjustEdit::request(row, u"-2.25"_s, u" refund "_s, english);
        QVERIFY(request);
        QCOMPARE(request.value(),
                 (api::BalanceAdjustment{row.id, *api::Decimal::parse("-2.25"), u"refund"_s}));
        const QList<models::FieldChange> changes =
            BalanceAdjustEdit::changes(row, request.value(), english);
        QCOMPARE(changes.size(), 3);
        QCOMPARE(changes.at(0).before, u"20.00"_s);
        QCOMPARE(changes.at(0).after, u"17.75"_s);
        QCOMPARE(changes.at(1).after, u"-2.25"_s);
        QCOMPARE(
            BalanceAdjustEdit::changes(row, {row.id, api::Decimal::fromInteger(3), u"x"_s}, english)
                .at(1)
                .after,
            u"+3.00"_s);
        QCOMPARE(changes.at(2).after, u"refund"_s);
    }

    // Issue 51: +5 on a monthly balance is gone at the reset; the review
    // says so. On a balance that does not reset it lasts until used.
    void lastingSaysWhenTheResetEndsIt()
    {
        const QLocale english(u"en_US"_s);
        const qint64 december =
            QDateTime(QDate(2026, 12, 10), QTime(0, 0), Qt::UTC).toMSecsSinceEpoch();
        const QString on = models::formatTimestamp(december, english);
        api::BalanceRow row = monthly("b_ann", december);
        QCOMPARE(BalanceAdjustEdit::lasting(row, api::Decimal::fromInteger(5), english),
                 u"This balance resets on %1; the credit lasts until then: the reset puts the "
                 "remaining back to 100.00."_s.arg(on));
        QCOMPARE(BalanceAdjustEdit::lasting(row, *api::Decimal::parse("-2"), english),
                 u"This balance resets on %1; the deduction lasts until then: the reset puts the "
                 "remaining back to 100.00."_s.arg(on));
        row.reset->rollover =
            api::RolloverRule{api::Decimal::fromInteger(50), 2, api::ResetInterval::Month};
        QCOMPARE(BalanceAdjustEdit::lasting(row, api::Decimal::fromInteger(5), english),
                 u"This balance resets on %1; the credit lasts until then. What is left of it "
                 "then rolls over with the rest unused (at most 50.00 held) for 2 month(s), and "
                 "then expires."_s.arg(on)); // no translator here to make the plural

        api::BalanceRow topUp = balance("12");
        topUp.id = u"b_topup"_s;
        QVERIFY(!BalanceAdjustEdit::resets(topUp));
        QCOMPARE(BalanceAdjustEdit::lasting(topUp, api::Decimal::fromInteger(5), english),
                 u"Balance b_topup does not reset; the credit lasts until it is used."_s);
        topUp.expiresAt = december;
        QCOMPARE(BalanceAdjustEdit::lasting(topUp, api::Decimal::fromInteger(5), english),
                 u"Balance b_topup does not reset; the credit lasts until it is used or the "
                 "balance expires on %1."_s.arg(on));
    }

    // Where a credit lasts: the customer's standalone balances of the
    // feature (not an entity's) that do not reset and are not unlimited.
    void lastingBalancesAreStandaloneAndNeverReset()
    {
        ListingBackend backend;
        const api::BalanceRow row = monthly("b_plan", 1'000'000);
        api::BalanceRow topUp = balance("12");
        topUp.id = u"b_topup"_s;
        topUp.customerId = u"ann"_s;
        api::BalanceRow weekly = monthly("b_weekly", 2'000'000);
        weekly.reset->interval = api::ResetInterval::Week;
        api::BalanceRow unlimited = topUp;
        unlimited.id = u"b_unlimited"_s;
        unlimited.unlimited = true;
        api::BalanceRow team = topUp;
        team.id = u"b_team"_s;
        team.entityId = u"team-1"_s;
        api::BalanceRow oneOff = topUp;
        oneOff.id = u"b_once"_s;
        oneOff.reset =
            api::Reset{api::ResetInterval::OneOff, std::nullopt, std::nullopt, std::nullopt};
        backend.rows = {weekly, topUp, unlimited, team, oneOff};
        auto lasting = BalanceAdjustEdit::lastingBalances(&backend, row);
        lasting.waitForFinished();
        const auto found = lasting.result(); // a copy: the loop must not outlive it
        QVERIFY(found.ok());
        QStringList ids;
        for (const api::BalanceRow &b : found.value())
            ids.append(b.id);
        QCOMPARE(ids, (QStringList{u"b_topup"_s, u"b_once"_s}));
        QCOMPARE(backend.asked->customerId, u"ann"_s);
        QCOMPARE(backend.asked->featureId, u"credits"_s);
        QVERIFY(backend.asked->planId && !*backend.asked->planId); // standalone: plan_id null
    }

    // Or a new balance of the row's owner and feature: only a credit, with
    // the adjustment's rules for amount and reason, reviewed as new.
    void aNewBalanceIsACreditOfTheRowsOwner()
    {
        const QLocale english(u"en_US"_s);
        api::BalanceRow row = monthly("b_seat", 1'000'000);
        row.entityId = u"seat-1"_s;
        const auto refused = [&](const QString &amount, const QString &reason) {
            const auto creation = BalanceAdjustEdit::creation(row, amount, reason, english);
            return creation ? QString() : creation.error().message;
        };
        QVERIFY(refused(u"-3"_s, u"why"_s).contains(u"a new balance holds what it is given"_s));
        QVERIFY(refused(u"0"_s, u"why"_s).contains(u"0 would not change"_s));
        QVERIFY(refused(u"1,000"_s, u"why"_s).contains(u"is not an amount"_s));
        QVERIFY(refused(u"5"_s, u" "_s).startsWith(u"Reason"_s));
        QVERIFY(refused(u"5"_s, u"x"_s + QChar(0x202E)).contains(u"U+202E"_s));

        const auto creation = BalanceAdjustEdit::creation(row, u"12.5"_s, u" lasts "_s, english);
        QVERIFY(creation);
        QCOMPARE(creation.value(),
                 (api::BalanceCreation{u"ann"_s, u"credits"_s, u"seat-1"_s,
                                       *api::Decimal::parse("12.5"), std::nullopt, u"lasts"_s}));
        const QList<models::FieldChange> changes =
            BalanceAdjustEdit::creationChanges(creation.value(), english);
        QCOMPARE(changes.size(), 3);
        QCOMPARE(changes.at(0).before, QString());
        QCOMPARE(changes.at(0).after, u"new: credits of ann, entity seat-1, does not reset"_s);
        QCOMPARE(changes.at(1).after, u"12.50"_s);
        QCOMPARE(changes.at(2).after, u"lasts"_s);
        QCOMPARE(BalanceAdjustEdit::lastingNew(creation.value(), english),
                 u"A new balance of credits that does not reset: the credit of 12.50 lasts "
                 "until it is used."_s);
    }
};

QTEST_GUILESS_MAIN(TestBalanceAdjustEdit)
#include "tst_balanceadjustedit.moc"
