// docs/openapi.yaml's Error.code lists exactly the codes the server can send:
// the list in services/api/ErrorCode.h, which every ApiError the engine and
// the server make is built from (docs/api.md, "Errors").
#include "services/api/ErrorCode.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace Qt::StringLiterals;

class TestOpenApi : public QObject
{
    Q_OBJECT

    // The words under components → schemas → Error → properties → code →
    // enum, one `- word` per line; empty when the file has no such list.
    static QStringList documentedCodes()
    {
        QFile spec(QStringLiteral(MD_SOURCE_DIR "/docs/openapi.yaml"));
        if (!spec.open(QIODevice::ReadOnly | QIODevice::Text))
            return {};
        const QString text = QString::fromUtf8(spec.readAll());
        static const QRegularExpression errorSchema(
            uR"(\n    Error:\n(?:      .*\n|\s*\n)*?      properties:\n(?:        .*\n)*?        code:\n(?:          .*\n)*?          enum:\n((?:            - \w+\n)+))"_s);
        const auto found = errorSchema.match(text);
        QStringList codes;
        if (!found.hasMatch())
            return codes;
        for (const QString &line : found.captured(1).split(u'\n', Qt::SkipEmptyParts))
            codes.append(line.trimmed().mid(2));
        return codes;
    }

private Q_SLOTS:
    void errorCodesAreTheServersList()
    {
        QStringList documented = documentedCodes();
        QVERIFY2(!documented.isEmpty(), "docs/openapi.yaml has no Error.code enum in block style");
        QStringList listed = md::api::serverErrorCodes();
        QCOMPARE(documented.size(), listed.size());
        documented.sort();
        listed.sort();
        QCOMPARE(documented, listed);
    }

    void everyWordIsDistinctAndInSnakeCase()
    {
        const QStringList listed = md::api::serverErrorCodes();
        static const QRegularExpression word(u"^[a-z]+(_[a-z]+)*$"_s);
        for (const QString &code : listed) {
            QVERIFY2(word.match(code).hasMatch(), qPrintable(code));
            QCOMPARE(listed.count(code), 1);
        }
    }
};

QTEST_GUILESS_MAIN(TestOpenApi)
#include "tst_openapi.moc"
