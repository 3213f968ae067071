// The demo workspace made ready for the screenshots, and the scenes more
// than one pass shoots: a customer with billing controls, the sandbox
// made different from production, webhook endpoints that heard the demo's
// events, the Balances page loaded, Tools ▸ Price a call.
#pragma once

#include "models/balances/BalanceFilter.h"
#include "services/backend/BillingBackend.h"

class QDir;
class QWidget;

namespace md::views {
class MainWindow;
}

namespace md::shots {

models::BalanceFilter giveControls(backend::BillingBackend &backend);
void makeDifferences(backend::BillingBackend &backend);
// Endpoints made before the demo's writes, so that they hear them.
void addWebhookEndpoints(backend::BillingBackend &backend);
void showBalances(views::MainWindow &window);
void shootPriceCall(backend::BillingBackend &backend, QWidget *window, const QString &customer,
                    const QString &file);
// The Webhooks page, the first endpoint's deliveries and a payload shown.
void shootWebhooks(views::MainWindow &window, const QDir &out, const QString &palette);
// Keys of several kinds (one revoked); answers the secret of a key that only reads.
QString addApiKeys(backend::BillingBackend &backend);
// The Keys page; then a console on `location` whose key only reads.
void shootKeys(views::MainWindow &window, const QDir &out, const QString &palette);
void shootReadOnly(const QString &location, const QString &readKey, const QDir &out,
                   const QString &palette);
// Usage ▸ Import usage… on a file of past usage (written into `work`): its
// dry run, each balance before and after and the refused events.
void shootUsageImport(backend::BillingBackend &backend, views::MainWindow &window, const QDir &work,
                      const QDir &out, const QString &palette);

// A Stripe account for the demo (stripe-stateful-mock: Pro matched by its
// metadata, Starter offered by its product's name, a legacy price for no
// plan); false, with `problem`, when the mock cannot start. Before the
// backend opens; then, once the demo is loaded, its test key connected.
bool seedStripe(QString *problem);
bool connectStripe(const QString &database);
// Tenants ▸ Stripe key…: the demo's key by its hint, a new one typed.
void shootStripeKey(backend::BillingBackend &backend, QWidget *window, const QDir &out,
                    const QString &palette);
// File ▸ Import customers… ▸ From Stripe, read and mapped.
void shootStripeSource(backend::BillingBackend &backend, QWidget *window, const QDir &out,
                       const QString &palette);

} // namespace md::shots
