# start service on a fresh embedded db? use bench harness to get a running service, then hit URL with autocannon
