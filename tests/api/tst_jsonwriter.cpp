// Strings JsonWriter writes are JSON a strict reader accepts and reads back
// unchanged, whatever control characters they hold and wherever (RapidJSON
// 1.1.0's SSE2 writer let U+001A..U+001F through raw in strings of 16 bytes
// or more; found by fuzz_billing_portal).
#include "services/api/JsonReader.h"
#include "services/api/JsonWriter.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;

class TestJsonWriter final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyControlCharacterAnywhere()
    {
        for (char16_t control = 0; control < 0x20; ++control) {
            for (int length : {1, 15, 16, 17, 40}) {
                for (int at = 0; at < length; at += 7) {
                    QString text(length, u'a');
                    text[at] = QChar(control);
                    api::JsonWriter writer;
                    writer.beginObject().field("s"_L1, text).endObject();
                    const QByteArray json = writer.take();
                    QJsonParseError error;
                    const QJsonDocument strict = QJsonDocument::fromJson(json, &error);
                    QVERIFY2(
                        error.error == QJsonParseError::NoError,
                        qPrintable(u"U+%1 at %2 of %3: %4"_s.arg(int(control), 4, 16, QChar(u'0'))
                                       .arg(at)
                                       .arg(length)
                                       .arg(QString::fromLatin1(json.toHex()))));
                    QCOMPARE(strict.object().value(u"s"_s).toString(), text);
                    const api::JsonReader reader = api::JsonReader::fromBody(json);
                    QCOMPARE(reader.field("s"_L1).string(), text);
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestJsonWriter)
#include "tst_jsonwriter.moc"
