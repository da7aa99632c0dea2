// Withdrawal requests per second through HTTP at 50 connections, on PostgreSQL and on PGlite:
// each one checks the withdrawal password (argon2id), freezes amount plus fee with a ledger hold
// and stores the request, as `userWithdraw/outMoney` does for users. 50 users, each funded by a
// deposit an operator approved through the console API, take turns.
import {
  BENCH_PASSWORD,
  cannon,
  fundedUsers,
  onBothDatabases,
  postJson,
  summary,
  withServer,
} from './lib.mjs';

const USERS = 50;
const WITH_PWD = '246810';
const TRC20_CHANNEL = 2;
/** A TRC20 address of the right format (users bind their own). */
const ADDRESS = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';

/** Users with a withdrawal password, a bound address and 500,000 USDT approved by an operator. */
function prepareUsers(base, dataDir) {
  return fundedUsers(base, dataDir, {
    count: USERS,
    name: 'withdraw',
    prepare: async (token) => {
      await postJson(
        `${base}/api/userInfo/updateUserWithPwd`,
        { newPwd: WITH_PWD, userPwd: BENCH_PASSWORD },
        token,
      );
      const address = await postJson(
        `${base}/api/userWalletAddress/addUserWalletAddress`,
        { currencyId: 3, network: 'TRC20', address: ADDRESS },
        token,
      );
      return { addressId: address.id };
    },
  });
}

function run(label, env) {
  return withServer(env, 'bourse-bench-withdraw-', async (server, dataDir) => {
    const users = await prepareUsers(server.url, dataDir);
    let sequence = 0;
    const requests = [
      {
        method: 'POST',
        path: '/api/userWithdraw/outMoney',
        setupRequest(request) {
          sequence += 1;
          const user = users[sequence % users.length];
          return {
            ...request,
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${user.token}`,
            },
            body: JSON.stringify({
              channelId: TRC20_CHANNEL,
              amount: '10',
              withPwd: WITH_PWD,
              addressId: user.addressId,
              requestId: `bench-${process.pid}-${sequence}`,
            }),
          };
        },
      },
    ];
    const result = summary(
      await cannon({ url: server.url, requests, connections: 50, duration: 10 }),
    );
    return {
      name: `withdrawals on ${label}, 50 connections`,
      ...result,
      pass: result.non2xx === 0,
    };
  });
}

export function benchWithdraw() {
  return onBothDatabases('bourse_bench_withdraw', run);
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchWithdraw(), null, 2));
