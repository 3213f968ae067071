// The JSON library choice (docs/json.md): a balances.list page of 200 rows
// written and read with Qt's JSON, RapidJSON (what Meterdesk uses, through
// JsonWriter and JsonValue), nlohmann-json and simdjson, beside memcpy of the
// same bytes. Each line also says whether a 20-digit amount survives.
#include "services/api/ListBalances.h"
#include "services/api/WireCodec.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <nlohmann/json.hpp>
#include <rapidjson/document.h>
#include <simdjson.h>

#include <cstring>
#include <functional>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

QTextStream out(stdout);
const QByteArray Exact = "12345678901.123456789";

api::ListBalancesResponse page(int rows)
{
    api::ListBalancesResponse response;
    for (int i = 0; i < rows; ++i) {
        api::BalanceRow row;
        row.id = u"bal_%1"_s.arg(i, 8, 10, QLatin1Char('0'));
        row.planId = i % 3 ? std::optional(u"pro"_s) : std::nullopt;
        row.includedGrant = *api::Decimal::parse(QByteArrayView("100"));
        row.prepaidGrant = *api::Decimal::parse(QByteArrayView("20.5"));
        row.remaining = *api::Decimal::parse(i == 7 ? QByteArrayView(Exact) : "87.25");
        row.usage = *api::Decimal::parse(QByteArrayView("33.25"));
        row.reset = api::Reset{api::ResetInterval::Month, 1, 1767225600000, std::nullopt};
        api::Price price;
        price.amount = *api::Decimal::parse(QByteArrayView("0.002"));
        price.billingUnits = api::Decimal::fromInteger(1);
        row.price = price;
        row.featureId = u"ai_credits"_s;
        row.customerId = u"customer-%1"_s.arg(i / 4);
        row.createdAt = 1761955200000 + i;
        response.list.append(row);
    }
    response.hasMore = true;
    response.nextCursor = u"YjE6MTIzNDU2"_s;
    return response;
}

// The page as Qt's JSON holds it: every amount a double.
QJsonObject qtPage(const api::ListBalancesResponse &response)
{
    const auto amount = [](api::Decimal d) { return d.toString().toDouble(); };
    QJsonArray list;
    for (const api::BalanceRow &row : response.list)
        list.append(QJsonObject{{u"id"_s, row.id},
                                {u"plan_id"_s, row.planId ? QJsonValue(*row.planId) : QJsonValue()},
                                {u"included_grant"_s, amount(row.includedGrant)},
                                {u"prepaid_grant"_s, amount(row.prepaidGrant)},
                                {u"remaining"_s, amount(row.remaining)},
                                {u"usage"_s, amount(row.usage)},
                                {u"unlimited"_s, row.unlimited},
                                {u"reset"_s, QJsonObject{{u"interval"_s, u"month"_s},
                                                         {u"interval_count"_s, 1},
                                                         {u"resets_at"_s, *row.reset->resetsAt}}},
                                {u"price"_s, QJsonObject{{u"amount"_s, amount(*row.price->amount)},
                                                         {u"billing_units"_s, 1},
                                                         {u"billing_method"_s, u"usage_based"_s},
                                                         {u"max_purchase"_s, QJsonValue()}}},
                                {u"expires_at"_s, QJsonValue()},
                                {u"feature_id"_s, row.featureId},
                                {u"status"_s, u"active"_s},
                                {u"rollovers"_s, QJsonArray()},
                                {u"customer_id"_s, row.customerId},
                                {u"entity_id"_s, QJsonValue()},
                                {u"created_at"_s, row.createdAt}});
    return {{u"list"_s, list}, {u"has_more"_s, true}, {u"next_cursor"_s, *response.nextCursor}};
}

nlohmann::json nlohmannPage(const api::ListBalancesResponse &response)
{
    const auto amount = [](api::Decimal d) { return d.toString().toDouble(); };
    nlohmann::json list = nlohmann::json::array();
    for (const api::BalanceRow &row : response.list)
        list.push_back(
            {{"id", row.id.toStdString()},
             {"plan_id", row.planId ? nlohmann::json(row.planId->toStdString()) : nlohmann::json()},
             {"included_grant", amount(row.includedGrant)},
             {"prepaid_grant", amount(row.prepaidGrant)},
             {"remaining", amount(row.remaining)},
             {"usage", amount(row.usage)},
             {"unlimited", row.unlimited},
             {"reset",
              {{"interval", "month"}, {"interval_count", 1}, {"resets_at", *row.reset->resetsAt}}},
             {"price",
              {{"amount", amount(*row.price->amount)},
               {"billing_units", 1},
               {"billing_method", "usage_based"},
               {"max_purchase", nullptr}}},
             {"expires_at", nullptr},
             {"feature_id", row.featureId.toStdString()},
             {"status", "active"},
             {"rollovers", nlohmann::json::array()},
             {"customer_id", row.customerId.toStdString()},
             {"entity_id", nullptr},
             {"created_at", row.createdAt}});
    return {
        {"list", list}, {"has_more", true}, {"next_cursor", response.nextCursor->toStdString()}};
}

// Microseconds per call of `work`, over enough calls to take about a second.
double perCall(const std::function<void()> &work)
{
    QElapsedTimer timer;
    timer.start();
    qint64 calls = 0;
    while (timer.elapsed() < 1000) {
        for (int i = 0; i < 20; ++i)
            work();
        calls += 20;
    }
    return double(timer.nsecsElapsed()) / 1000.0 / double(calls);
}

void line(const char *what, double us, double ceilingUs, bool exact)
{
    out << QString::asprintf("  %-52s %8.1f µs  %7.0f pages/s  %6.1fx memcpy  %s\n", what, us,
                             1e6 / us, us / ceilingUs, exact ? "exact" : "ROUNDS")
        << Qt::flush;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(u"JSON libraries on a 200-row balances.list page"_s);
    parser.addHelpOption();
    const QCommandLineOption rowsOption(u"rows"_s, u"Rows per page (default 200)."_s, u"N"_s,
                                        u"200"_s);
    parser.addOption(rowsOption);
    parser.process(app);

    const api::ListBalancesResponse response = page(parser.value(rowsOption).toInt());
    const QByteArray text = api::toJsonText(response);
    const std::string textStd = text.toStdString();
    out << "page: " << response.list.size() << " rows, " << text.size() << " bytes\n";

    QByteArray copy(text.size(), Qt::Uninitialized);
    volatile char sink = 0;
    const double memcpyUs = perCall([&] {
        std::memcpy(copy.data(), text.constData(), size_t(text.size()));
        sink = sink + copy[copy.size() / 2];
    });
    out << QString::asprintf("  %-52s %8.2f µs (the ceiling each figure is a ratio of)\n",
                             "memcpy of the page", memcpyUs);

    out << "write (from the wire types):\n";
    {
        QByteArray written;
        const double us = perCall([&] { written = api::toJsonText(response); });
        line("RapidJSON Writer (JsonWriter, Meterdesk)", us, memcpyUs, written.contains(Exact));
    }
    {
        QByteArray written;
        const double us = perCall(
            [&] { written = QJsonDocument(qtPage(response)).toJson(QJsonDocument::Compact); });
        line("Qt: QJsonObject per row + QJsonDocument::toJson", us, memcpyUs,
             written.contains(Exact));
    }
    {
        std::string written;
        const double us = perCall([&] { written = nlohmannPage(response).dump(); });
        line("nlohmann-json: json per row + dump()", us, memcpyUs,
             written.find(Exact.toStdString()) != std::string::npos);
    }
    out << "  simdjson 3.0.1 has no writer\n";

    out << "read (the page's text):\n";
    {
        bool exact = false;
        const double us = perCall([&] {
            const auto parsed = api::JsonValue::parse(text, u"the page"_s);
            exact = parsed.value().value("list"_L1).at(7).value("remaining"_L1).numberText() ==
                    QByteArrayView(Exact);
        });
        line("RapidJSON SAX, numbers as text (JsonValue, Meterdesk)", us, memcpyUs, exact);
    }
    {
        bool exact = false;
        const double us = perCall([&] {
            const auto decoded = api::decodeBody<api::ListBalancesResponse>(text);
            exact = decoded.value().list.at(7).remaining.toString().toLatin1() == Exact;
        });
        line("  ... and decoded into ListBalancesResponse", us, memcpyUs, exact);
    }
    {
        bool exact = false;
        const double us = perCall([&] {
            rapidjson::Document document;
            document.Parse(text.constData(), size_t(text.size()));
            const double remaining = document["list"][7]["remaining"].GetDouble();
            exact = QByteArray::number(remaining, 'g', 21) == Exact;
        });
        line("RapidJSON Document (doubles)", us, memcpyUs, exact);
    }
    {
        bool exact = false;
        const double us = perCall([&] {
            const QJsonDocument document = QJsonDocument::fromJson(text);
            const double remaining = document.object()[u"list"_s][7][u"remaining"_s].toDouble();
            exact = QByteArray::number(remaining, 'g', 21) == Exact;
        });
        line("Qt: QJsonDocument::fromJson", us, memcpyUs, exact);
    }
    {
        bool exact = false;
        const double us = perCall([&] {
            const nlohmann::json document = nlohmann::json::parse(textStd);
            const double remaining = document["list"][7]["remaining"].get<double>();
            exact = QByteArray::number(remaining, 'g', 21) == Exact;
        });
        line("nlohmann-json: parse", us, memcpyUs, exact);
    }
    {
        simdjson::dom::parser dom;
        const simdjson::padded_string padded(textStd);
        bool exact = false;
        const double us = perCall([&] {
            const simdjson::dom::element document = dom.parse(padded);
            const double remaining = double(document["list"].at(7)["remaining"]);
            exact = QByteArray::number(remaining, 'g', 21) == Exact;
        });
        line("simdjson DOM (doubles)", us, memcpyUs, exact);
    }
    {
        simdjson::ondemand::parser ondemand;
        const simdjson::padded_string padded(textStd);
        bool exact = false;
        const double us = perCall([&] {
            simdjson::ondemand::document document = ondemand.iterate(padded);
            qsizetype i = 0;
            for (auto row : document["list"].get_array()) {
                std::string_view token = row["remaining"].raw_json_token();
                if (i++ == 7)
                    exact = QByteArrayView(token.data(), qsizetype(token.size())).trimmed() ==
                            QByteArrayView(Exact);
            }
        });
        line("simdjson On Demand, raw number tokens (one field)", us, memcpyUs, exact);
    }
    return sink == 1 ? 1 : 0;
}
