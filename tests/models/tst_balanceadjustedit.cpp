// The balance adjustment form's rules: amounts as typed in the user's
// locale or plainly, never an ambiguous thousands separator; the problems
// it names; the change shown for review.
#include "models/BalanceAdjustEdit.h"

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
};

QTEST_GUILESS_MAIN(TestBalanceAdjustEdit)
#include "tst_balanceadjustedit.moc"
