// The workspace the fault and concurrency tests and the load benchmarks run
// on: one organization with an all-scope test key, an AI credit system
// "credits" (without markup by default, so a call of flat/one with k million
// input tokens costs exactly k credits),
// customers c0… holding a billion prepaid credits each, and a plan "team"
// that imports grant 10 "plain" credits a month on.
#pragma once

#include "services/engine/Engine.h"
#include "tests/support/JsonEdit.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace md::test {

inline const QString TrustKey = QStringLiteral("sk_test_trust000000000000000000000000");
inline constexpr qint64 TrustGrant = 1'000'000'000;

// A plan of the one `item` (a product of a workspace file).
inline QJsonObject trustPlan(const QString &id, const QString &name, const QJsonObject &item)
{
    using namespace Qt::StringLiterals;
    return QJsonObject{
        {u"id"_s, id},           {u"name"_s, name},        {u"version"_s, 1},
        {u"is_add_on"_s, false}, {u"is_default"_s, false}, {u"items"_s, QJsonArray{item}},
        {u"created_at"_s, 1}};
}

inline QJsonObject trustWorkspace(int customers, const QString &secret = TrustKey,
                                  const QString &creditsMarkup = {})
{
    using namespace Qt::StringLiterals;
    QJsonArray list;
    for (int c = 0; c < customers; ++c)
        list.append(
            QJsonObject{{u"id"_s, u"c%1"_s.arg(c)},
                        {u"created_at"_s, 1},
                        {u"balances"_s, QJsonArray{QJsonObject{{u"id"_s, u"b%1"_s.arg(c)},
                                                               {u"feature_id"_s, u"credits"_s},
                                                               {u"included_grant"_s, 0},
                                                               {u"prepaid_grant"_s, TrustGrant},
                                                               {u"remaining"_s, TrustGrant},
                                                               {u"usage"_s, 0},
                                                               {u"created_at"_s, 1}}}}});
    const auto creditSystem = [](const QString &id, const QString &markup) {
        QJsonObject system{{u"markups"_s, QJsonArray()}};
        if (!markup.isEmpty())
            system.insert(u"default_markup"_s, markup.toDouble()); // as a workspace file holds it
        return QJsonObject{{u"id"_s, id},
                           {u"name"_s, id},
                           {u"type"_s, u"credit_system"_s},
                           {u"created_at"_s, 1},
                           {u"credit_system"_s, system}};
    };
    const QJsonObject team = trustPlan(
        u"team"_s, u"Team"_s,
        {{u"feature_id"_s, u"plain"_s}, {u"included_usage"_s, 10}, {u"interval"_s, u"month"_s}});
    return QJsonObject{
        {u"format"_s, u"meterdesk-workspace"_s},
        {u"version"_s, 1},
        {u"organizations"_s,
         QJsonArray{QJsonObject{
             {u"id"_s, u"org_trust"_s},
             {u"slug"_s, u"trust"_s},
             {u"name"_s, u"Trust"_s},
             {u"created_at"_s, 1},
             {u"api_keys"_s, QJsonArray{QJsonObject{{u"env"_s, u"test"_s},
                                                    {u"secret"_s, secret},
                                                    {u"scopes"_s, QJsonArray{u"*"_s}},
                                                    {u"created_at"_s, 1}}}},
             {u"test"_s,
              QJsonObject{{u"features"_s, QJsonArray{creditSystem(u"credits"_s, creditsMarkup),
                                                     creditSystem(u"plain"_s, QString())}},
                          {u"products"_s, QJsonArray{team}},
                          {u"customers"_s, list}}}}}}};
}

// Loads the workspace into `location`: empty on success, else why not.
inline QString loadTrustWorkspace(const QString &location, int customers)
{
    engine::Engine setup(location);
    if (auto opened = setup.open(); !opened)
        return opened.error().message;
    if (auto loaded = setup.loadWorkspace(fromQt(trustWorkspace(customers))); !loaded)
        return loaded.error().message;
    return {};
}

// A balances.track_tokens body costing `credits` on flat/one.
inline QByteArray trackBody(const QString &customer, int credits, bool async)
{
    using namespace Qt::StringLiterals;
    return QJsonDocument(QJsonObject{{u"customer_id"_s, customer},
                                     {u"model_id"_s, u"flat/one"_s},
                                     {u"input_tokens"_s, qint64(credits) * 1'000'000},
                                     {u"output_tokens"_s, 0},
                                     {u"overage_behavior"_s, u"overflow"_s},
                                     {u"async"_s, async}})
        .toJson(QJsonDocument::Compact);
}

// A billing.import body putting `customer` on "team" with 4 credits used.
inline QByteArray importBody(const QString &customer)
{
    using namespace Qt::StringLiterals;
    return QJsonDocument(
               QJsonObject{
                   {u"customer_id"_s, customer},
                   {u"customer_data"_s,
                    QJsonObject{{u"name"_s, QString(u"Imported "_s + customer)}}},
                   {u"processors"_s,
                    QJsonArray{QJsonObject{{u"type"_s, u"stripe"_s},
                                           {u"id"_s, QString(u"cus_"_s + customer)}}}},
                   {u"billables"_s,
                    QJsonArray{QJsonObject{
                        {u"processor"_s, u"stripe"_s},
                        {u"plan"_s, QJsonObject{{u"plan_id"_s, u"team"_s},
                                                {u"balances"_s, QJsonArray{QJsonObject{
                                                                    {u"feature_id"_s, u"plain"_s},
                                                                    {u"usage"_s, 4}}}}}}}}}})
        .toJson(QJsonDocument::Compact);
}

} // namespace md::test
