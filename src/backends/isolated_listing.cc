#include "backends/isolated_listing.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

#include <nlohmann/json.hpp>

#include "core/crash_note.h"

namespace edgebench {

namespace {

using json = nlohmann::json;

json CapabilitiesToJson(const Capabilities& c) {
  return {{"thread_safe_run", c.thread_safe_run}, {"dynamic_shapes", c.dynamic_shapes},
          {"placement", c.placement},             {"language_model", c.language_model},
          {"bare_tensor_models", c.bare_tensor_models}, {"matrix_probe", c.matrix_probe},
          {"max_dim", c.max_dim}};
}

Capabilities CapabilitiesFromJson(const json& j) {
  Capabilities c;
  c.thread_safe_run = j.at("thread_safe_run").get<bool>();
  c.dynamic_shapes = j.at("dynamic_shapes").get<bool>();
  c.placement = j.at("placement").get<bool>();
  c.language_model = j.at("language_model").get<bool>();
  c.bare_tensor_models = j.at("bare_tensor_models").get<bool>();
  c.matrix_probe = j.at("matrix_probe").get<bool>();
  c.max_dim = j.at("max_dim").get<int64_t>();
  return c;
}

// Everything the child wrote to `fd` until it closed it.
std::string ReadAll(int fd) {
  std::string text;
  char buffer[8192];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      text.append(buffer, static_cast<size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      return text;
    }
  }
}

// How the child ended, for a reader.
std::string HowItEnded(int status) {
  if (WIFSIGNALED(status)) {
    return "crashed on " + SignalText(WTERMSIG(status));
  }
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended";
}

BackendInfo AskInAChild(const Registry& registry, const std::string& name) {
  BackendInfo crashed;
  crashed.name = name;
  crashed.listing_crashed = true;
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return registry.InfoOf(name);  // no isolation to be had: ask here
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    return registry.InfoOf(name);
  }
  if (pid == 0) {
    ::close(pipe_fds[0]);
    const std::string text = BackendInfoToJsonText(registry.InfoOf(name));
    size_t sent = 0;
    while (sent < text.size()) {
      const ssize_t n = ::write(pipe_fds[1], text.data() + sent, text.size() - sent);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) ::_exit(3);
      sent += static_cast<size_t>(n);
    }
    // No destructors or atexit handlers: some runtimes crash tearing down, and this copy of
    // the process has nothing else to finish.
    ::_exit(0);
  }
  ::close(pipe_fds[1]);
  const std::string text = ReadAll(pipe_fds[0]);
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    auto info = BackendInfoFromJsonText(text);
    if (info.ok()) return info.take();
    crashed.reason = "its listing could not be read back (" + info.error() + ")";
    return crashed;
  }
  crashed.reason = "the process asking its runtime for its devices " + HowItEnded(status) +
                   "; its targets may still run (each case runs in a worker process of its own), but what it "
                   "offers here is not known";
  return crashed;
}

}  // namespace

std::string BackendInfoToJsonText(const BackendInfo& info) {
  json devices = json::array();
  for (const DeviceInfo& d : info.devices) {
    devices.push_back({{"name", d.name},
                       {"description", d.description},
                       {"available", d.available},
                       {"reason", d.reason},
                       {"runtime", d.runtime},
                       {"capabilities", CapabilitiesToJson(d.capabilities)}});
  }
  return json{{"name", info.name},
              {"runtime", info.runtime},
              {"version", info.version},
              {"built", info.built},
              {"reason", info.reason},
              {"artifact_extensions", info.artifact_extensions},
              {"devices", devices},
              {"loaded", info.loaded},
              {"model_is_code", info.model_is_code},
              {"device_library_option", info.device_library_option},
              {"listing_crashed", info.listing_crashed}}
      .dump();
}

Result<BackendInfo> BackendInfoFromJsonText(const std::string& text) {
  try {
    const json j = json::parse(text);
    BackendInfo info;
    info.name = j.at("name").get<std::string>();
    info.runtime = j.at("runtime").get<std::string>();
    info.version = j.at("version").get<std::string>();
    info.built = j.at("built").get<bool>();
    info.reason = j.at("reason").get<std::string>();
    info.artifact_extensions = j.at("artifact_extensions").get<std::vector<std::string>>();
    for (const json& d : j.at("devices")) {
      DeviceInfo device;
      device.name = d.at("name").get<std::string>();
      device.description = d.at("description").get<std::string>();
      device.available = d.at("available").get<bool>();
      device.reason = d.at("reason").get<std::string>();
      device.runtime = d.at("runtime").get<std::string>();
      device.capabilities = CapabilitiesFromJson(d.at("capabilities"));
      info.devices.push_back(std::move(device));
    }
    info.loaded = j.at("loaded").get<bool>();
    info.model_is_code = j.at("model_is_code").get<std::string>();
    info.device_library_option = j.at("device_library_option").get<std::string>();
    info.listing_crashed = j.at("listing_crashed").get<bool>();
    return info;
  } catch (const std::exception& e) {
    return Status::Error(std::string("not a backend's listing: ") + e.what());
  }
}

std::vector<BackendInfo> ListBackendsIsolated(const Registry& registry) {
  std::vector<BackendInfo> infos;
  for (const std::string& name : registry.Names()) infos.push_back(AskInAChild(registry, name));
  return infos;
}

}  // namespace edgebench
