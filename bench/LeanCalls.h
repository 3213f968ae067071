// Lean clients calling balances.track_tokens sync over HTTP on the trust
// workspace's customers until told to stop, with the server's own CPU for
// those calls: what bench_clock and bench_webhooks measure a load with.
#pragma once

#include "bench/BenchSupport.h"
#include "bench/ProcessCpu.h"
#include "services/api/TrackTokens.h"
#include "services/api/WireCodec.h"
#include "tests/support/HttpClient.h"
#include "tests/trust/TrustWorkspace.h"

#include <QElapsedTimer>
#include <QThread>

#include <atomic>
#include <thread>
#include <vector>

namespace md::bench {

using namespace Qt::StringLiterals;

inline QByteArray callBody(int customer)
{
    api::TrackTokensRequest request;
    request.customerId = u"c%1"_s.arg(customer);
    request.featureId = u"credits"_s; // its other credit system is the one the clock resets
    request.modelId = u"openai/gpt-4o-mini"_s;
    request.inputTokens = 1234;
    request.outputTokens = 567;
    request.overageBehavior = api::OverageBehavior::Overflow;
    return api::toJsonText(request);
}

struct Rate
{
    qint64 calls = 0;
    double seconds = 0;
    double serverCpu = 0;
    double perSecond() const { return calls / seconds; }
    double cpuPerCallUs() const { return calls ? serverCpu / calls * 1e6 : 0; }
};

// Lean clients calling until `until()` says stop.
template <typename Until>
Rate calling(const QUrl &url, qint64 serverPid, int clients, int customers, Until &&until)
{
    std::atomic<qint64> calls{0};
    std::atomic<bool> stop{false};
    const double cpuBefore = bench::cpuSeconds(serverPid);
    QElapsedTimer timer;
    timer.start();
    std::vector<std::thread> threads;
    for (int c = 0; c < clients; ++c)
        threads.emplace_back([&, c] {
            test::HttpClient http(url, test::TrustKey.toLatin1());
            for (int i = 0; !stop; ++i) {
                const auto answer =
                    http.post("/v1/balances.track_tokens", callBody((c * 7919 + i) % customers));
                if (answer.status != 200)
                    fail(u"track_tokens: %1 %2"_s.arg(answer.status)
                             .arg(QString::fromUtf8(answer.body)));
                ++calls;
            }
        });
    while (!until(timer))
        QThread::msleep(100);
    stop = true;
    for (std::thread &thread : threads)
        thread.join();
    return {calls, double(timer.nsecsElapsed()) / 1e9, bench::cpuSeconds(serverPid) - cpuBefore};
}

} // namespace md::bench
