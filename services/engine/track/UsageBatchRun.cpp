#include "services/engine/track/UsageBatchRun.h"

#include "services/engine/track/TrackQueue.h"
#include "services/engine/track/TrackWriter.h"

#include <atomic>
#include <memory>
#include <vector>

namespace md::engine {

namespace {

// The answers as they come, each at its index, from whichever thread
// answers it; the last one hands the whole on.
struct Answers
{
    explicit Answers(std::size_t count, UsageBatchRun::Done finished)
        : results(count)
        , left(count)
        , done(std::move(finished))
    {}

    void answer(std::size_t index, api::UsageBatchResult result)
    {
        results[index] = std::move(result);
        if (left.fetch_sub(1, std::memory_order_acq_rel) != 1)
            return;
        api::UsageBatchResponse response;
        response.results = QList<api::UsageBatchResult>(std::make_move_iterator(results.begin()),
                                                        std::make_move_iterator(results.end()));
        done(std::move(response));
    }

    std::vector<api::UsageBatchResult> results; // distinct elements, one writer each
    std::atomic<std::size_t> left;
    UsageBatchRun::Done done;
};

} // namespace

void UsageBatchRun::start(TrackWriter &writer, TrackQueue &queue, const Scope &scope,
                          const api::UsageBatchRequest &request, Done done)
{
    if (request.events.isEmpty()) // the wire refuses it; a caller here may not
        return done({});
    const auto answers =
        std::make_shared<Answers>(std::size_t(request.events.size()), std::move(done));
    std::vector<TrackWriter::Submission> calls;
    std::vector<TrackQueue::Submission> stored;
    for (qsizetype i = 0; i < request.events.size(); ++i) {
        const auto &event = request.events.at(i);
        if (!event) {
            answers->answer(std::size_t(i), api::UsageBatchResult::of(event.error()));
            continue;
        }
        const std::size_t index = std::size_t(i);
        if (request.async)
            stored.push_back({event.value().call, event.value().idempotencyKey,
                              [answers, index](api::Result<api::Done> accepted) {
                                  api::UsageBatchResult result;
                                  result.status = 202;
                                  if (!accepted) {
                                      result.status = accepted.error().status;
                                      result.error = accepted.error();
                                  }
                                  answers->answer(index, std::move(result));
                              }});
        else
            calls.push_back({event.value().call, event.value().idempotencyKey,
                             [answers, index](api::Result<api::TrackTokensResponse> answer) {
                                 answers->answer(index, api::UsageBatchResult::of(answer));
                             }});
    }
    if (!stored.empty())
        queue.enqueueAll(scope, std::move(stored));
    if (!calls.empty())
        writer.submitAll(scope, std::move(calls));
}

} // namespace md::engine
